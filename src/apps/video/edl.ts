import { frameOfTimecode, type Rate, timebase, timecode } from './rate.js';
import { oneLine, type ReadClip, type ReadTimeline } from './read-back.js';
import type { PlacedClip, Timeline } from './timeline.js';

/**
 * A CMX 3600 EDL: one event line per clip (number, reel, track, cut, then source in/out and
 * record in/out as non-drop timecode), its clip name and file on comment lines after it, as
 * Premiere and Resolve write them. 29.97 counts at 30 and 23.976 at 24, non-drop.
 */
function baseOf(rate: Rate): number {
  const base = timebase(rate);
  if (!base) throw new Error(`An EDL cannot hold ${rate.num}/${rate.den}.`);
  return base.base;
}

function event(number: number, clip: PlacedClip, track: 'V' | 'A', base: number): string[] {
  const tc = (frame: number) => timecode(frame, base);
  const line = `${String(number).padStart(3, '0')}  AX       ${track.padEnd(5)} C        ${tc(clip.in)} ${tc(clip.in + clip.end - clip.start)} ${tc(clip.start)} ${tc(clip.end)}`;
  return [line, `* FROM CLIP NAME: ${oneLine(clip.name)}`, `* SOURCE FILE: ${oneLine(clip.path)}`, ''];
}

export function writeEdl(timeline: Timeline): string {
  const base = baseOf(timeline.rate);
  const lines = [`TITLE: ${oneLine(timeline.name)}`, 'FCM: NON-DROP FRAME', ''];
  timeline.clips.forEach((clip, index) => {
    lines.push(...event(index + 1, clip, 'V', base));
  });
  if (timeline.music) lines.push(...event(timeline.clips.length + 1, timeline.music, 'A', base));
  return `${lines.join('\n')}`;
}

const EVENT = /^(\d{3,6})\s+(\S+)\s+(V|A|A2|AA|B|AA\/V)\s+C\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$/;

/**
 * Reads the event lines back, with the clip name and source file of the comments after each.
 * An EDL states no sequence length: it is where the last event ends. Record and source
 * durations must agree, every timecode must be whole frames at the base.
 */
export function readEdl(text: string, rate: Rate): ReadTimeline {
  const base = baseOf(rate);
  const offGrid: string[] = [];
  const clips: ReadClip[] = [];
  const lines = text.split(/\r?\n/);
  if (!/^FCM: NON-DROP FRAME$/m.test(text)) offGrid.push('the EDL does not say FCM: NON-DROP FRAME');
  for (const [index, line] of lines.entries()) {
    const match = EVENT.exec(line);
    if (!match) continue;
    const [number, , track, ...codes] = match.slice(1) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const [sourceIn, sourceOut, recordIn, recordOut] = codes.map((code) => {
      const frame = frameOfTimecode(code, base);
      if (frame === undefined)
        offGrid.push(`event ${number}: ${code} is not timecode at ${base} frames a second`);
      return frame ?? Number.NaN;
    }) as [number, number, number, number];
    if (sourceOut - sourceIn !== recordOut - recordIn)
      offGrid.push(
        `event ${number}: its source lasts ${sourceOut - sourceIn} frames and its record ${recordOut - recordIn}`,
      );
    const comment = (label: string) =>
      lines
        .slice(index + 1)
        .find(
          (next, offset, rest) =>
            next.startsWith(`* ${label}:`) && !rest.slice(0, offset).some((line) => EVENT.test(line)),
        )
        ?.slice(label.length + 3)
        .trim();
    clips.push({
      track: track === 'V' ? 'video' : 'audio',
      name: comment('FROM CLIP NAME') ?? '',
      path: comment('SOURCE FILE'),
      in: sourceIn,
      start: recordIn,
      end: recordOut,
    });
  }
  return { frames: Math.max(0, ...clips.map((clip) => clip.end)), clips, offGrid };
}
