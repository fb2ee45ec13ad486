/**
 * The command-line rung's three measurements, each against a baseline in the same run:
 *
 *   (a) prompt-to-answer: from a program blocking on a confirmation to the wrapper's answer,
 *       timed by the program itself (it stamps the clock before reading and after the answer
 *       arrives). Baseline: the usual fix for hangs, a silence timer that answers after 1 s
 *       without output. (The anchors in public trackers hang until a 2 to 5 minute timeout.)
 *   (b) runWrapped on `true` against a bare child_process.spawn, medians of interleaved runs.
 *   (c) peak resident memory (VmHWM) of a child process reading 1 GB of output through
 *       runWrapped, against one reading it with a bare spawn and discarding it. Both run on
 *       plain node (the TypeScript is transpiled first), so no loader memory is counted.
 *
 *   node --import tsx bench/cli.bench.ts [--runs 9] [--mb 1024]
 *   (LIFT_BENCH_SHORT=1: --runs 1 --mb 16 unless given, bench/short.ts)
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWrapped } from '../src/rungs/cli/run-wrapped.js';
import { transpileClosure } from '../test/fixtures/cli/transpile.js';
import { option } from './short.js';

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const line = (name: string, lift: number, baseline: number, unit: string) =>
  console.log(
    `${name}: lift ${round(lift)} ${unit}, baseline ${round(baseline)} ${unit}, ratio ${round(lift / baseline, 3)}`,
  );

/** Stamps the clock, blocks reading the answer, stamps again: prints the wait in ms. */
const ASKER = `
import sys, time
sys.stdout.write("Apply the change? [y/N] "); sys.stdout.flush()
before = time.monotonic()
sys.stdin.readline()
print("\\nwaited_ms %.3f" % ((time.monotonic() - before) * 1000))
`;

function waited(text: string): number {
  return Number(/waited_ms ([\d.]+)/.exec(text)?.[1]);
}

async function promptToAnswer(runs: number): Promise<{ lift: number; baseline: number }> {
  const lift: number[] = [];
  for (let run = 0; run < runs; run++) {
    const result = await runWrapped({
      program: 'python3',
      args: ['-c', ASKER],
      confirmations: [{ pattern: /Apply the change\? \[y\/N\]$/, answer: 'y' }],
      approved: true,
      deadline: Date.now() + 30_000,
    });
    lift.push(waited(result.stdout.text));
  }
  const baseline: number[] = [];
  for (let run = 0; run < Math.min(5, runs); run++) {
    baseline.push(await silenceTimer(1_000));
  }
  return { lift: median(lift), baseline: median(baseline) };
}

/** A bare spawn that answers once the program has printed nothing for `quietMs`. */
function silenceTimer(quietMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', ASKER], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      clearTimeout(timer);
      timer = setTimeout(() => child.stdin.write('y\n'), quietMs);
    });
    child.once('error', reject);
    child.once('close', () => {
      clearTimeout(timer);
      resolve(waited(output));
    });
  });
}

function bareTrue(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('true', [], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

async function overheadOnTrue(runs: number): Promise<{ lift: number; baseline: number }> {
  const lift: number[] = [];
  const baseline: number[] = [];
  for (let run = 0; run < runs + 5; run++) {
    let started = performance.now();
    await bareTrue();
    const bare = performance.now() - started;
    started = performance.now();
    await runWrapped({ program: 'true', deadline: Date.now() + 10_000 });
    const wrapped = performance.now() - started;
    // The first five pairs warm up.
    if (run >= 5) {
      baseline.push(bare);
      lift.push(wrapped);
    }
  }
  return { lift: median(lift), baseline: median(baseline) };
}

const BARE_READER = `
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
const child = spawn('head', ['-c', process.argv[2], '/dev/zero'], { stdio: ['pipe', 'pipe', 'pipe'] });
let bytes = 0;
child.stdout.on('data', (chunk) => { bytes += chunk.length; });
child.on('close', () => {
  const peakKb = Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
  process.stdout.write(JSON.stringify({ bytes, peak_mb: Math.round(peakKb / 1024) }));
});
`;

function peakMemory(bytes: number): { lift: number; baseline: number } {
  const temp = mkdtempSync(join(tmpdir(), 'lift-cli-bench-'));
  try {
    const wrapped = transpileClosure(
      new URL('../test/fixtures/cli/wrap-large-output.ts', import.meta.url).pathname,
      temp,
    );
    const bare = join(temp, 'bare-reader.mjs');
    writeFileSync(bare, BARE_READER);
    const lift = JSON.parse(execFileSync('node', [wrapped, String(bytes)], { encoding: 'utf8' })) as {
      peak_mb: number;
      bytes: number;
    };
    const baseline = JSON.parse(execFileSync('node', [bare, String(bytes)], { encoding: 'utf8' })) as {
      peak_mb: number;
      bytes: number;
    };
    if (lift.bytes !== bytes || baseline.bytes !== bytes)
      throw new Error('a reader did not see all the output');
    return { lift: lift.peak_mb, baseline: baseline.peak_mb };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

const runs = option('runs', 9, 1);
const megabytes = option('mb', 1024, 16);
const prompt = await promptToAnswer(runs);
line('prompt-to-answer median', prompt.lift, prompt.baseline, 'ms');
const overhead = await overheadOnTrue(runs * 3);
line('runWrapped on true, median', overhead.lift, overhead.baseline, 'ms');
const memory = peakMemory(megabytes * 1024 * 1024);
line(`peak memory reading ${megabytes} MB of output`, memory.lift, memory.baseline, 'MB');
