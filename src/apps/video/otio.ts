import { type Rate, rateText } from './rate.js';
import { pathOfUrl, type ReadClip, type ReadTimeline, urlOfPath } from './read-back.js';
import type { PlacedClip, Timeline } from './timeline.js';

/**
 * OpenTimelineIO's JSON (Timeline.1, Stack.1, Track.1, Clip.2): a RationalTime is a value and a
 * rate. The rate is a double by OTIO's schema, so the values are whole frame counts at that rate
 * (30000/1001 as 29.97002997002997) and no time is a decimal of seconds; the exact fraction is
 * kept in the timeline's metadata.
 */
const rational = (value: number, rate: Rate) => ({
  OTIO_SCHEMA: 'RationalTime.1',
  rate: rate.num / rate.den,
  value,
});
const range = (start: number, duration: number, rate: Rate) => ({
  OTIO_SCHEMA: 'TimeRange.1',
  duration: rational(duration, rate),
  start_time: rational(start, rate),
});

function clipJson(clip: PlacedClip, rate: Rate) {
  return {
    OTIO_SCHEMA: 'Clip.2',
    name: clip.name,
    metadata: {},
    source_range: range(clip.in, clip.end - clip.start, rate),
    effects: [],
    markers: [],
    enabled: true,
    media_references: {
      DEFAULT_MEDIA: {
        OTIO_SCHEMA: 'ExternalReference.1',
        name: clip.name,
        metadata: {},
        available_range: range(0, clip.mediaFrames, rate),
        available_image_bounds: null,
        target_url: urlOfPath(clip.path),
      },
    },
    active_media_reference_key: 'DEFAULT_MEDIA',
  };
}

function track(name: string, kind: 'Video' | 'Audio', clips: PlacedClip[], rate: Rate) {
  return {
    OTIO_SCHEMA: 'Track.1',
    name,
    metadata: {},
    source_range: null,
    effects: [],
    markers: [],
    enabled: true,
    kind,
    children: clips.map((clip) => clipJson(clip, rate)),
  };
}

export function writeOtio(timeline: Timeline): string {
  const { rate } = timeline;
  const tracks = [track('V1', 'Video', timeline.clips, rate)];
  if (timeline.music) tracks.push(track('A1', 'Audio', [timeline.music], rate));
  const document = {
    OTIO_SCHEMA: 'Timeline.1',
    name: timeline.name,
    metadata: { lift: { rate: rateText(rate), width: timeline.width, height: timeline.height } },
    global_start_time: rational(0, rate),
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      name: 'tracks',
      metadata: {},
      source_range: null,
      effects: [],
      markers: [],
      enabled: true,
      children: tracks,
    },
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

interface RationalTime {
  OTIO_SCHEMA?: string;
  rate?: number;
  value?: number;
}
interface OtioItem {
  OTIO_SCHEMA?: string;
  name?: string;
  kind?: string;
  source_range?: { start_time?: RationalTime; duration?: RationalTime } | null;
  media_references?: Record<string, { target_url?: string }>;
  active_media_reference_key?: string;
  children?: OtioItem[];
}

/**
 * Reads OTIO JSON back by its schema names: each track's children placed one after another (a
 * Gap takes its place too), every RationalTime at the timeline's rate and a whole frame count.
 */
export function readOtio(text: string, rate: Rate): ReadTimeline {
  const document = JSON.parse(text) as OtioItem & { tracks?: OtioItem };
  if (document.OTIO_SCHEMA !== 'Timeline.1')
    throw new Error(`The document is ${document.OTIO_SCHEMA}, not Timeline.1.`);
  const offGrid: string[] = [];
  const frames = (time: RationalTime | undefined, where: string): number => {
    if (
      time?.OTIO_SCHEMA !== 'RationalTime.1' ||
      time.rate !== rate.num / rate.den ||
      !Number.isInteger(time.value)
    ) {
      offGrid.push(`${where} is ${JSON.stringify(time)}`);
      return Number.NaN;
    }
    return time.value as number;
  };
  const clips: ReadClip[] = [];
  let longest = 0;
  for (const child of document.tracks?.children ?? []) {
    if (child.OTIO_SCHEMA !== 'Track.1') continue;
    let at = 0;
    for (const item of child.children ?? []) {
      const where = `${child.name}/${item.name}`;
      const duration = frames(item.source_range?.duration, `${where} duration`);
      if (item.OTIO_SCHEMA?.startsWith('Clip.')) {
        const reference = item.media_references?.[item.active_media_reference_key ?? 'DEFAULT_MEDIA'];
        clips.push({
          track: child.kind === 'Audio' ? 'audio' : 'video',
          name: item.name ?? '',
          path: reference?.target_url === undefined ? undefined : pathOfUrl(reference.target_url),
          in: frames(item.source_range?.start_time, `${where} start`),
          start: at,
          end: at + duration,
        });
      }
      at += duration;
    }
    longest = Math.max(longest, at);
  }
  return { frames: longest, clips, offGrid };
}
