import { basename } from 'node:path';
import { LiftError } from '../../contract/errors.js';
import type { Media } from './probe.js';
import { framesWithin, type Rate, rateLabel, timebase, toFrame, toSeconds } from './rate.js';

/** A clip as asked: a file, and optionally where in it to start and stop, in seconds. */
export interface ClipRequest {
  file: string;
  in?: number | undefined;
  out?: number | undefined;
}

/** The tool's input, as the implementation takes it. */
export interface TimelineRequest {
  name: string;
  clips: ClipRequest[];
  music?: ClipRequest | undefined;
  fps: number | string;
  canvas: { width: number; height: number };
}

/** The longest timeline one call builds: it is rendered whole to check it. */
export const MAX_TIMELINE_SECONDS = 600;

/** One piece of media on the timeline, every time a whole frame at the timeline's rate. */
export interface PlacedClip {
  /** The file's name, as the editors show it. */
  name: string;
  /** Its real, absolute path. */
  path: string;
  /** Source frames used, `out` exclusive. */
  in: number;
  out: number;
  /** Where on the timeline it sits, `end` exclusive. */
  start: number;
  end: number;
  /** Whole frames in the file at the timeline's rate. */
  mediaFrames: number;
  /** The file's own rate and whole frames at it, where it has pictures at a rate probed. */
  native: { rate: Rate; frames: number } | undefined;
  video: boolean;
  audio: boolean;
}

export interface Timeline {
  name: string;
  rate: Rate;
  width: number;
  height: number;
  /** On the one video track, back to back from frame 0. */
  clips: PlacedClip[];
  /** Under the clips from frame 0 on the one audio track, cut at the timeline's end. */
  music: PlacedClip | undefined;
  /** The sequence's length in frames: the last clip's end. */
  frames: number;
}

/** A time the snapping moved, for the caller to see. */
export interface Snap {
  field: string;
  asked: number;
  seconds: number;
  frame: number;
}

/** The formats written, in the order the tool reports them. */
export const FORMATS = ['xmeml', 'fcpxml', 'edl', 'otio', 'mlt'] as const;
export type Format = (typeof FORMATS)[number];

/** CMX 3600 counts timecode at these whole rates (23.976 and 29.97 as 24 and 30 non-drop). */
const EDL_BASES = [24, 25, 30];

/** Why a format cannot hold this rate, or undefined when every one can. */
export function rateRefusal(rate: Rate): string | undefined {
  const base = timebase(rate);
  if (base === undefined)
    return `Premiere XML counts frames at a whole timebase, or one slowed by 1000/1001 (NTSC), and a CMX 3600 EDL in timecode at 24, 25 or 30 a second; ${rateLabel(rate)} is neither`;
  if (!EDL_BASES.includes(base.base))
    return `a CMX 3600 EDL counts timecode at 24, 25 or 30 frames a second (23.976 and 29.97 included), not ${rateLabel(rate)}`;
  return undefined;
}

/** The rates all five files hold. */
export const RATES_HELD = '23.976, 24, 25, 29.97 or 30';

function refuseTime(field: string, message: string, hint: string): never {
  throw new LiftError('BAD_INPUT', `${field}: ${message}`, {
    hint,
    outcome: 'not_started',
    details: { field },
  });
}

/**
 * Places the clips back to back and the music under them, snapping every time to the nearest
 * frame. A clip whose `out` lies past the end of its file, or that is shorter than a frame once
 * snapped, is BAD_INPUT naming the field; the snaps that moved a time are returned.
 */
export function placeClips(
  request: {
    name: string;
    rate: Rate;
    width: number;
    height: number;
    clips: Array<{ clip: ClipRequest; path: string; media: Media }>;
    music: { clip: ClipRequest; path: string; media: Media } | undefined;
  },
  maxFrames: number,
): { timeline: Timeline; snaps: Snap[] } {
  const { rate } = request;
  const snaps: Snap[] = [];
  const snap = (field: string, asked: number): number => {
    const frame = toFrame(asked, rate);
    const seconds = toSeconds(frame, rate);
    if (Math.abs(seconds - asked) > 1e-9)
      snaps.push({ field, asked, seconds: Math.round(seconds * 1e6) / 1e6, frame });
    return frame;
  };
  const source = (
    clip: ClipRequest,
    media: Media,
    field: string,
  ): { in: number; out: number; mediaFrames: number; native: PlacedClip['native'] } => {
    const mediaFrames = framesWithin(media.seconds, rate);
    if (clip.out !== undefined && clip.out > media.seconds + 1e-3)
      refuseTime(
        `${field}.out`,
        `${clip.out} s is past the end of ${basename(clip.file)}, which lasts ${media.seconds} s.`,
        `Give an out of at most ${media.seconds}, or leave it out to run to the end of the file.`,
      );
    const first = clip.in === undefined ? 0 : snap(`${field}.in`, clip.in);
    const last = Math.min(clip.out === undefined ? mediaFrames : snap(`${field}.out`, clip.out), mediaFrames);
    if (last - first < 1)
      refuseTime(
        field,
        `from ${clip.in ?? 0} s to ${clip.out ?? media.seconds} s of ${basename(clip.file)} holds no whole frame at ${rateLabel(rate)} fps.`,
        `Give an in before the out by at least one frame (${toSeconds(1, rate).toFixed(4)} s), inside the file's ${media.seconds} s.`,
      );
    const native = media.rate && { rate: media.rate, frames: framesWithin(media.seconds, media.rate) };
    return { in: first, out: last, mediaFrames, native };
  };

  const clips: PlacedClip[] = [];
  let at = 0;
  for (const [index, { clip, path, media }] of request.clips.entries()) {
    const field = `clips[${index}]`;
    if (!media.video)
      refuseTime(
        `${field}.file`,
        `${basename(clip.file)} has no pictures.`,
        'Give a video file for each clip.',
      );
    const used = source(clip, media, field);
    const length = used.out - used.in;
    clips.push({
      name: basename(path),
      path,
      ...used,
      start: at,
      end: at + length,
      video: true,
      audio: media.audio,
    });
    at += length;
  }
  if (at > maxFrames)
    refuseTime(
      'clips',
      `the timeline would last ${toSeconds(at, rate).toFixed(1)} s, longer than the ${toSeconds(maxFrames, rate)} s one call renders to check.`,
      'Build a shorter timeline, or several.',
    );
  let music: PlacedClip | undefined;
  if (request.music) {
    const { clip, path, media } = request.music;
    if (!media.audio)
      refuseTime(
        'music.file',
        `${basename(clip.file)} has no sound.`,
        'Give an audio file (or a video with sound) for the music.',
      );
    const used = source(clip, media, 'music');
    const length = Math.min(used.out - used.in, at);
    music = {
      name: basename(path),
      path,
      ...used,
      out: used.in + length,
      start: 0,
      end: length,
      video: media.video,
      audio: true,
    };
  }
  return {
    timeline: {
      name: request.name,
      rate,
      width: request.width,
      height: request.height,
      clips,
      music,
      frames: at,
    },
    snaps,
  };
}
