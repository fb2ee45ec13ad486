// The third family of lifted programs, timed end to end as a person would call it, next to the
// seed's ledger row (not re-measured here): timeline in 4 formats, 4/4 checks, 3.3 s, which
// includes two model calls; ours is the tool alone, with melt's render among its checks.
// LIFT_BENCH_SHORT=1 (bench/short.ts) renders a smaller canvas; the tool is called once either way.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tools } from '../src/apps/video/tools.js';
import { isError } from '../src/contract/envelope.js';
import { Runtime } from '../src/runtime/runtime.js';
import { SHORT } from './short.js';

const SEED = { seconds: 3.3, checks: 4 };
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
} finally {
  await runtime.close();
  rmSync(folder, { recursive: true, force: true });
}
