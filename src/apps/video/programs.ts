import type { ToolContext } from '../../contract/context.js';
import { runWrapped, type WrappedResult } from '../../rungs/cli/run-wrapped.js';

/** Debian's programs the video tools drive; tests and deployments may point elsewhere. */
export interface VideoPrograms {
  melt: string;
  ffmpeg: string;
  ffprobe: string;
}

export const DEBIAN_VIDEO: VideoPrograms = {
  melt: '/usr/bin/melt',
  ffmpeg: '/usr/bin/ffmpeg',
  ffprobe: '/usr/bin/ffprobe',
};

export const VIDEO_PROGRAMS_HINT =
  "melt (Debian package melt) renders the timeline and ffmpeg/ffprobe (package ffmpeg) measure the media and the render; install them with bash scripts/setup.sh video. The message carries the program's output.";

/** One run of a video program under the call's deadline and signal, its output kept up to `cap` bytes. */
export function runVideoProgram(
  program: string,
  args: readonly string[],
  ctx: Pick<ToolContext, 'deadline' | 'signal'>,
  cap = 1024 * 1024,
): Promise<WrappedResult> {
  return runWrapped({ program, args, deadline: ctx.deadline, signal: ctx.signal, input: '', cap });
}
