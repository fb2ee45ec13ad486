import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import type { Check } from '../../contract/envelope.js';
import { isLiftError } from '../../contract/errors.js';
import { runVideoProgram, type VideoPrograms } from './programs.js';
import type { Timeline } from './timeline.js';

/** A frame whose scene score (0 to 1, ffmpeg's `scene` in select) reaches this is a cut. */
export const SCENE_THRESHOLD = 0.3;

/** How far from its planned frame a cut may be found. */
const CUT_TOLERANCE = 1;

type Limits = Pick<ToolContext, 'deadline' | 'signal'>;

/**
 * Renders the MLT file with melt, as written, at the canvas size (x264, fast; AAC when there is
 * music). Returns the check and whether there is a file to measure.
 */
async function render(mlt: string, out: string, timeline: Timeline, limits: Limits, programs: VideoPrograms) {
  const sound = timeline.music ? ['acodec=aac', 'ab=128k'] : ['an=1'];
  let failure = '';
  try {
    await runVideoProgram(
      programs.melt,
      [
        '-quiet',
        mlt,
        '-consumer',
        `avformat:${out}`,
        'vcodec=libx264',
        'preset=ultrafast',
        'crf=20',
        'real_time=-1',
        ...sound,
      ],
      limits,
    );
  } catch (error) {
    if (!isLiftError(error) || error.code !== 'PROGRAM_FAILED') throw error;
    failure = error.message;
  }
  return failure || !existsSync(out) ? failure || 'it wrote no file' : undefined;
}

interface Stream {
  codec_type?: string;
  nb_read_frames?: string;
}

/** ffprobe counts the rendered pictures by decoding them, and says whether there is sound. */
async function countFrames(out: string, limits: Limits, programs: VideoPrograms) {
  const result = await runVideoProgram(
    programs.ffprobe,
    ['-v', 'error', '-count_frames', '-show_entries', 'stream=codec_type,nb_read_frames', '-of', 'json', out],
    limits,
  );
  const streams = (JSON.parse(result.stdout.text) as { streams?: Stream[] }).streams ?? [];
  const video = streams.find((stream) => stream.codec_type === 'video');
  return {
    frames: Number(video?.nb_read_frames ?? 0),
    sound: streams.some((stream) => stream.codec_type === 'audio'),
  };
}

/**
 * The frames where ffmpeg's scene-change measure (select's `scene`, on the pictures as RGB) reaches
 * SCENE_THRESHOLD, by the render's own timestamps: frame 0 is always printed, so its time is the origin.
 */
async function sceneChanges(out: string, timeline: Timeline, limits: Limits, programs: VideoPrograms) {
  const result = await runVideoProgram(
    programs.ffmpeg,
    [
      '-hide_banner',
      '-nostats',
      '-i',
      out,
      '-an',
      '-vf',
      // In RGB the measure sees a change of colour as well as of brightness (in YUV a red shot
      // cut to a green one of the same brightness scored 0.001); 320 pixels across are plenty.
      `scale=320:-2,format=rgb24,select='eq(n\\,0)+gte(scene\\,${SCENE_THRESHOLD})',metadata=print`,
      '-f',
      'null',
      '-',
    ],
    limits,
  );
  const times = [...result.stderr.text.matchAll(/pts_time:(-?[\d.]+)/g)].map((match) => Number(match[1]));
  const origin = times[0] ?? 0;
  const { num, den } = timeline.rate;
  return times.slice(1).map((time) => Math.round(((time - origin) * num) / den));
}

/**
 * The proof that matters: melt renders the MLT file, ffprobe counts as many frames as the
 * timeline has, and the scene-change filter finds a cut within a frame of every clip's start.
 */
export async function renderChecks(
  mlt: string,
  out: string,
  timeline: Timeline,
  limits: Limits,
  programs: VideoPrograms,
): Promise<Check[]> {
  const failed = await render(mlt, out, timeline, limits, programs);
  if (failed !== undefined)
    return [
      { name: 'melt_renders', passed: false, detail: `melt did not render ${basename(mlt)}: ${failed}` },
    ];
  const counted = await countFrames(out, limits, programs);
  const changes = await sceneChanges(out, timeline, limits, programs);
  const cuts = timeline.clips.slice(1).map((clip) => clip.start);
  const missed = cuts.filter((cut) => !changes.some((change) => Math.abs(change - cut) <= CUT_TOLERANCE));
  const found = cuts.map((cut) => changes.find((change) => Math.abs(change - cut) <= CUT_TOLERANCE));
  const others = changes.filter((change) => !cuts.some((cut) => Math.abs(change - cut) <= CUT_TOLERANCE));
  const soundOk = counted.sound === (timeline.music !== undefined);
  return [
    {
      name: 'melt_renders',
      passed: soundOk,
      detail: `melt rendered ${basename(mlt)} to ${basename(out)}${counted.sound ? ' with the music' : ''}${soundOk ? '' : timeline.music ? ', but the render has no sound' : ', with sound nobody asked for'}.`,
    },
    {
      name: 'rendered_frames',
      passed: counted.frames === timeline.frames,
      detail: `ffprobe decoded ${counted.frames} frames of the render; the timeline has ${timeline.frames}.`,
    },
    {
      name: 'cuts_at_frames',
      passed: missed.length === 0,
      detail:
        cuts.length === 0
          ? 'One clip: no cut to find.'
          : `${missed.length === 0 ? `The scene-change filter found all ${cuts.length} cut(s)` : `No scene change within ${CUT_TOLERANCE} frame of ${missed.join(', ')} (two shots that look alike at a cut are not told apart by pixels)`}: planned ${cuts.join(', ')}, found ${found.map((frame) => frame ?? '-').join(', ')}${others.length > 0 ? `; other changes inside shots at ${others.slice(0, 10).join(', ')}` : ''}.`,
    },
  ];
}
