import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import type { ToolResult } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import type { PathScope } from '../../contract/paths.js';
import { writeFileAtomic } from '../../rungs/file/atomic.js';
import { readEdl, writeEdl } from './edl.js';
import { readFcpxml, writeFcpxml } from './fcpxml.js';
import { readMlt, writeMlt } from './mlt.js';
import { readOtio, writeOtio } from './otio.js';
import { type Media, probeMedia } from './probe.js';
import { DEBIAN_VIDEO, type VideoPrograms } from './programs.js';
import { parseRate, type Rate, rateLabel, rateText, timebase, timecode } from './rate.js';
import type { ReadTimeline } from './read-back.js';
import { renderChecks } from './render-checks.js';
import {
  type ClipRequest,
  type Format,
  MAX_TIMELINE_SECONDS,
  placeClips,
  RATES_HELD,
  rateRefusal,
  type Timeline,
  type TimelineRequest,
} from './timeline.js';
import { type ReadBack, timelineChecks } from './timeline-checks.js';
import { readXmeml, writeXmeml } from './xmeml.js';

type Fields = {
  name: string;
  fps: string;
  frames: number;
  timecode: string;
  clips: Array<{ name: string; start: number; end: number; in: number }>;
  snapped: Array<{ field: string; asked: number; seconds: number; frame: number }>;
};

/** Each format's file name after the timeline's slug, its writer, and its reader. */
const FILES: Record<
  Format,
  {
    suffix: string;
    write: (timeline: Timeline) => string;
    read: (text: string, rate: Rate) => ReadTimeline | Promise<ReadTimeline>;
  }
> = {
  xmeml: { suffix: '.xml', write: writeXmeml, read: readXmeml },
  fcpxml: { suffix: '.fcpxml', write: writeFcpxml, read: readFcpxml },
  edl: { suffix: '.edl', write: writeEdl, read: readEdl },
  otio: { suffix: '.otio', write: writeOtio, read: readOtio },
  mlt: { suffix: '.mlt', write: writeMlt, read: readMlt },
};

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'timeline';

/** The exact rate asked, or BAD_INPUT / REQUEST_REFUSED before anything is read or written. */
function rateOf(fps: number | string): Rate {
  const rate = parseRate(fps);
  if (!rate || rate.num / rate.den > 240)
    throw new LiftError('BAD_INPUT', `fps: ${fps} is not a frame rate this tool knows exactly.`, {
      hint: `Give ${RATES_HELD}, or an exact fraction such as "30000/1001".`,
      outcome: 'not_started',
      details: { field: 'fps' },
    });
  const refused = rateRefusal(rate);
  if (refused)
    throw new LiftError('REQUEST_REFUSED', `Cannot write a timeline at ${rateLabel(rate)} fps: ${refused}.`, {
      hint: `Use ${RATES_HELD} frames a second; nothing was written.`,
      outcome: 'not_started',
    });
  return rate;
}

/** A media file inside the roots, probed: NOT_FOUND when it is not there, BAD_INPUT when it is no file. */
async function media(
  ctx: ToolContext,
  clip: ClipRequest,
  what: string,
  programs: VideoPrograms,
): Promise<{ clip: ClipRequest; path: string; media: Media }> {
  const scope: PathScope = { family: 'video', what };
  const path = ctx.resolvePath(clip.file, scope);
  const found = statSync(path, { throwIfNoEntry: false });
  if (!found)
    throw new LiftError('NOT_FOUND', `${what}: no file at ${clip.file}.`, {
      outcome: 'not_started',
      details: { field: what },
    });
  if (!found.isFile())
    throw new LiftError('BAD_INPUT', `${what}: ${clip.file} is not a regular file.`, {
      hint: 'Give the path of a media file.',
      outcome: 'not_started',
      details: { field: what },
    });
  return { clip, path, media: await probeMedia(path, what, ctx, programs) };
}

async function readBack(
  files: Record<Format, string>,
  texts: Record<Format, string>,
  rate: Rate,
): Promise<ReadBack> {
  const entries = await Promise.all(
    (Object.keys(FILES) as Format[]).map(async (format) => {
      try {
        return [format, await FILES[format].read(texts[format], rate)] as const;
      } catch (error) {
        return [format, { error: `${basename(files[format])}: ${(error as Error).message}` }] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as ReadBack;
}

/**
 * Builds the timeline: the rate first (a rate a format cannot hold is refused before any file is
 * read), then every file probed and every time snapped, then the five files written, read back
 * from disk by their readers, and the MLT rendered and measured.
 */
export async function timelineBuild(
  input: TimelineRequest,
  ctx: ToolContext,
  programs: VideoPrograms = DEBIAN_VIDEO,
): Promise<ToolResult<Fields>> {
  const rate = rateOf(input.fps);
  const clips = [];
  for (const [index, clip] of input.clips.entries())
    clips.push(await media(ctx, clip, `clips[${index}].file`, programs));
  const music = input.music ? await media(ctx, input.music, 'music.file', programs) : undefined;
  const maxFrames = Math.floor((MAX_TIMELINE_SECONDS * rate.num) / rate.den);
  const { timeline, snaps } = placeClips(
    { name: input.name, rate, width: input.canvas.width, height: input.canvas.height, clips, music },
    maxFrames,
  );

  const stem = slug(input.name);
  const files = Object.fromEntries(
    (Object.keys(FILES) as Format[]).map((format) => [
      format,
      ctx.outputFile(`${stem}${FILES[format].suffix}`),
    ]),
  ) as Record<Format, string>;
  const texts = Object.fromEntries(
    (Object.keys(FILES) as Format[]).map((format) => [format, FILES[format].write(timeline)]),
  ) as Record<Format, string>;
  ctx.markStarted();
  for (const format of Object.keys(FILES) as Format[])
    await writeFileAtomic(files[format], texts[format], { mode: 0o600 });

  const written = Object.fromEntries(
    await Promise.all(
      (Object.keys(FILES) as Format[]).map(async (format) => [format, await readFile(files[format], 'utf8')]),
    ),
  ) as Record<Format, string>;
  const checks = timelineChecks(timeline, await readBack(files, written, rate));
  const render = ctx.outputFile(`${stem}.mp4`);
  ctx.emit({ type: 'progress-reported', stage: 'render', message: `melt renders ${timeline.frames} frames` });
  checks.push(...(await renderChecks(files.mlt, render, timeline, ctx, programs)));

  const base = timebase(rate)?.base ?? 1;
  const placed = [...timeline.clips, ...(timeline.music ? [timeline.music] : [])];
  const passed = checks.filter((check) => check.passed).length;
  return {
    fields: {
      name: timeline.name,
      fps: rateText(rate),
      frames: timeline.frames,
      timecode: timecode(timeline.frames, base),
      clips: placed.map((clip) => ({ name: clip.name, start: clip.start, end: clip.end, in: clip.in })),
      snapped: snaps.slice(0, 20),
    },
    summary: `Timeline ${timeline.name}: ${timeline.clips.length} clip(s)${timeline.music ? ' and music' : ''}, ${timeline.frames} frames (${timecode(timeline.frames, base)}) at ${rateLabel(rate)} fps, written for Premiere, Final Cut, an EDL, OTIO and MLT and rendered; ${snaps.length} time(s) snapped to the frame grid. Checks: ${passed} of ${checks.length} passed.`,
    files: { ...files, render },
    checks,
    verifiedBy:
      'saxes parsed the three XML files and JSON.parse the OTIO back from disk, the EDL by its event lines; melt rendered the MLT, ffprobe counted its frames and ffmpeg found its cuts',
  };
}
