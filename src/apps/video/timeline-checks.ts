import type { Check } from '../../contract/envelope.js';
import { oneLine, type ReadClip, type ReadTimeline } from './read-back.js';
import type { Format, PlacedClip, Timeline } from './timeline.js';

/** What each written file is called in a check's detail. */
export const FORMAT_NAMES: Record<Format, string> = {
  xmeml: 'Premiere XML',
  fcpxml: 'FCPXML',
  edl: 'EDL',
  otio: 'OTIO',
  mlt: 'MLT',
};

/** Each file as its reader read it, or the reason it could not. */
export type ReadBack = Record<Format, ReadTimeline | { error: string }>;

function expected(timeline: Timeline): ReadClip[] {
  const placed = (clip: PlacedClip, track: 'video' | 'audio'): ReadClip => ({
    track,
    name: clip.name,
    path: clip.path,
    in: clip.in,
    start: clip.start,
    end: clip.end,
  });
  return [
    ...timeline.clips.map((clip) => placed(clip, 'video')),
    ...(timeline.music ? [placed(timeline.music, 'audio')] : []),
  ];
}

const describe = (clip: ReadClip) =>
  `${clip.track} ${clip.name} at frames ${clip.start}-${clip.end} from source frame ${clip.in}`;

/** The first way `found` differs from `wanted`, or undefined when every clip is there as placed. */
function difference(wanted: ReadClip[], read: ReadClip[]): string | undefined {
  // Video before audio, each track in timeline order (FCPXML nests the music inside a clip).
  const found = [...read].sort((a, b) =>
    a.track === b.track ? a.start - b.start : a.track === 'video' ? -1 : 1,
  );
  if (found.length !== wanted.length) return `${found.length} clips, not ${wanted.length}`;
  for (const [index, want] of wanted.entries()) {
    const got = found[index] as ReadClip;
    const same =
      got.track === want.track &&
      oneLine(got.name) === oneLine(want.name) &&
      (got.path === undefined || oneLine(got.path) === oneLine(want.path ?? '')) &&
      got.in === want.in &&
      got.start === want.start &&
      got.end === want.end;
    if (!same) return `clip ${index + 1} is ${describe(got)}, not ${describe(want)}`;
  }
  return undefined;
}

/**
 * The checks on the written files as their readers read them back: every clip in each file at
 * its frames, the same sequence length in all of them, and no time off the frame grid.
 */
export function timelineChecks(timeline: Timeline, read: ReadBack): Check[] {
  const wanted = expected(timeline);
  const formats = Object.keys(read) as Format[];
  const checks: Check[] = formats.map((format) => {
    const found = read[format];
    const name = FORMAT_NAMES[format];
    if ('error' in found)
      return {
        name: `clips_in_${format}`,
        passed: false,
        detail: `${name} could not be read back: ${found.error}`,
      };
    const wrong = difference(wanted, found.clips);
    return {
      name: `clips_in_${format}`,
      passed: wrong === undefined,
      detail: wrong
        ? `${name}: ${wrong}.`
        : `${name} read back: all ${wanted.length} clips at their frames (${timeline.clips.map((clip) => clip.start).join(', ')}${timeline.music ? ', music at 0' : ''}).`,
    };
  });
  const lengths = formats.map((format) => {
    const found = read[format];
    return `${FORMAT_NAMES[format]} ${'error' in found ? 'unread' : found.frames}`;
  });
  const sameLength = formats.every((format) => {
    const found = read[format];
    return !('error' in found) && found.frames === timeline.frames;
  });
  checks.push({
    name: 'same_length',
    passed: sameLength,
    detail: `${sameLength ? 'Every file is' : `Not every file is ${timeline.frames} frames:`} ${sameLength ? `${timeline.frames} frames long` : lengths.join(', ')}.`,
  });
  const offGrid = formats.flatMap((format) => {
    const found = read[format];
    return 'error' in found ? [] : found.offGrid.map((where) => `${FORMAT_NAMES[format]}: ${where}`);
  });
  checks.push({
    name: 'on_frame_grid',
    passed: offGrid.length === 0 && formats.every((format) => !('error' in read[format])),
    detail:
      offGrid.length === 0
        ? 'Every time in every file read back is a whole frame at the timeline rate.'
        : `${offGrid.length} time(s) off the frame grid: ${offGrid.slice(0, 5).join('; ')}.`,
  });
  return checks;
}
