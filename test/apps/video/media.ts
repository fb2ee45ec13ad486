import { execFileSync } from 'node:child_process';

/**
 * Test media made by ffmpeg, nothing downloaded: testsrc2's moving pattern under a strong colour
 * wash (each clip its own, so every cut is a scene change), or a sine tone.
 */
export function makeClip(path: string, colour: string, seconds: number, fps = 25): string {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=s=320x180:r=${fps}:d=${seconds},drawbox=x=0:y=0:w=iw:h=ih:color=${colour}@0.85:t=fill`,
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    path,
  ]);
  return path;
}

export function makeTone(path: string, seconds: number): string {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=f=440:d=${seconds}`,
    '-c:a',
    'aac',
    path,
  ]);
  return path;
}

/** What ffprobe says of a rendered file: decoded frames, the rate, and whether it has sound. */
export function probeRender(path: string): { frames: number; rate: string; sound: boolean } {
  const json = execFileSync('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-show_entries',
    'stream=codec_type,nb_read_frames,r_frame_rate',
    '-of',
    'json',
    path,
  ]).toString();
  const streams = (JSON.parse(json) as { streams: Array<Record<string, string>> }).streams;
  const video = streams.find((stream) => stream.codec_type === 'video');
  return {
    frames: Number(video?.nb_read_frames),
    rate: String(video?.r_frame_rate),
    sound: streams.some((stream) => stream.codec_type === 'audio'),
  };
}
