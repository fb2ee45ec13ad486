// The third family of lifted programs, timed end to end as a person would call it, next to the
// seed's ledger rows (not re-measured here): timeline in 4 formats, 4/4 checks, 3.3 s, and title
// animation, 3/3 checks, 6.1 s, each including two model calls; ours are the tools alone, with
// melt's render and lottie-web's playback in Chromium among their checks.
// LIFT_BENCH_SHORT=1 (bench/short.ts) renders a smaller canvas; each tool is called once either way.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tools } from '../src/apps/video/tools.js';
import { isError } from '../src/contract/envelope.js';
import { Runtime } from '../src/runtime/runtime.js';
import { SHORT } from './short.js';

const SEED = { seconds: 3.3, checks: 4 };
const TITLE_SEED = { seconds: 6.1, checks: 3 };
const [width, height] = SHORT ? [320, 180] : [1280, 720];

const folder = mkdtempSync(join(tmpdir(), 'lift-video-bench-'));
const inputs = join(folder, 'inputs');
mkdirSync(inputs);
const runtime = new Runtime({ home: join(folder, 'home'), tools, defaultRoots: [inputs] });

/** Four shots of 3 s, each washed in its own colour, and a tone: made by ffmpeg, not timed. */
function media(): { clips: string[]; music: string } {
  const clips = ['red', 'green', 'blue', 'yellow'].map((colour) => {
    const path = join(inputs, `${colour}.mp4`);
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i'],
      `testsrc2=s=${width}x${height}:r=25:d=3,drawbox=x=0:y=0:w=iw:h=ih:color=${colour}@0.7:t=fill`,
      ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', path],
    ]);
    return path;
  });
  const music = join(inputs, 'theme.m4a');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=440:d=12', '-c:a', 'aac', music]);
  return { clips, music };
}

try {
  const { clips, music } = media();
  const started = performance.now();
  const envelope = await runtime.invoke('build_timeline', {
    name: 'Bench reel',
    fps: 29.97,
    canvas: { width, height },
    clips: clips.map((file, index) => ({ file, in: 0.2 + index * 0.1, out: 2.4 })),
    music: { file: music },
  });
  const seconds = (performance.now() - started) / 1000;
  // A refused call would print 0/0 checks and a ratio of nothing: it ends the bench.
  if (isError(envelope)) throw new Error(`build_timeline failed: ${JSON.stringify(envelope).slice(0, 600)}`);
  const passed = envelope.checks.filter((check) => check.passed).length;
  for (const check of envelope.checks)
    if (!check.passed) console.log(`failed check ${check.name}: ${check.detail}`);
  console.log(
    `timeline lift ${seconds.toFixed(1).padStart(5)} s ${`${passed}/${envelope.checks.length}`.padStart(6)} checks (${envelope.fields.frames} frames at ${width}x${height}, rendered) | seed ${SEED.seconds} s ${SEED.checks}/${SEED.checks} | ratio ${(seconds / SEED.seconds).toFixed(2)}`,
  );

  // The title at the full broadcast size (a smaller one in short mode): one call, Chromium's start included.
  const [titleWidth, titleHeight] = SHORT ? [960, 540] : [1920, 1080];
  const titleStarted = performance.now();
  const title = await runtime.invoke('build_title_animation', {
    name: 'Bench title',
    text: 'Launch Day\nLift 1.0',
    size: Math.round(titleHeight / 9),
    colors: { text: '#ffffff', box: '#203060' },
    canvas: { width: titleWidth, height: titleHeight },
    fps: 29.97,
    style: 'slide_up',
    timings: { in: 0.5, hold: 2, out: 0.5 },
  });
  const titleSeconds = (performance.now() - titleStarted) / 1000;
  if (isError(title)) throw new Error(`build_title_animation failed: ${JSON.stringify(title).slice(0, 600)}`);
  const titlePassed = title.checks.filter((check) => check.passed).length;
  for (const check of title.checks)
    if (!check.passed) console.log(`failed check ${check.name}: ${check.detail}`);
  console.log(
    `title lift ${titleSeconds.toFixed(1).padStart(5)} s ${`${titlePassed}/${title.checks.length}`.padStart(6)} checks (${title.fields.frames} frames at ${titleWidth}x${titleHeight}, played in Chromium) | seed ${TITLE_SEED.seconds} s ${TITLE_SEED.checks}/${TITLE_SEED.checks} | ratio ${(titleSeconds / TITLE_SEED.seconds).toFixed(2)}`,
  );
} finally {
  await runtime.close();
  rmSync(folder, { recursive: true, force: true });
}
