import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { runVideoProgram, type VideoPrograms } from './programs.js';
import { parseRate, type Rate } from './rate.js';

/** What ffprobe says of a media file: how long it lasts, and whether it has pictures and sound. */
export interface Media {
  /** Seconds of pictures (the video stream's length), else of the whole file. */
  seconds: number;
  video: boolean;
  audio: boolean;
  /** The pictures' own rate (ffprobe's r_frame_rate), when there are pictures. */
  rate: Rate | undefined;
}

interface ProbeJson {
  streams?: Array<{ codec_type?: string; duration?: string; r_frame_rate?: string }>;
  format?: { duration?: string };
}

/** Probes one file with ffprobe; a file it cannot read is BAD_INPUT naming the field. */
export async function probeMedia(
  path: string,
  field: string,
  ctx: Pick<ToolContext, 'deadline' | 'signal'>,
  programs: VideoPrograms,
): Promise<Media> {
  let parsed: ProbeJson;
  try {
    const result = await runVideoProgram(
      programs.ffprobe,
      [
        '-v',
        'error',
        '-show_entries',
        'format=duration:stream=codec_type,duration,r_frame_rate',
        '-of',
        'json',
        path,
      ],
      ctx,
    );
    parsed = JSON.parse(result.stdout.text) as ProbeJson;
  } catch (error) {
    if (error instanceof LiftError && error.code !== 'PROGRAM_FAILED') throw error;
    throw new LiftError('BAD_INPUT', `${field}: ffprobe cannot read ${path} as media.`, {
      hint: 'Give a video (or, for music, an audio) file ffmpeg can decode.',
      outcome: 'not_started',
      details: { field },
      cause: error,
    });
  }
  const streams = parsed.streams ?? [];
  const video = streams.find((stream) => stream.codec_type === 'video');
  const seconds = Number(video?.duration ?? parsed.format?.duration ?? Number.NaN);
  return {
    seconds: Number.isFinite(seconds) ? seconds : 0,
    video: video !== undefined,
    audio: streams.some((stream) => stream.codec_type === 'audio'),
    rate: video?.r_frame_rate === undefined ? undefined : parseRate(video.r_frame_rate),
  };
}
