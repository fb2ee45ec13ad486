import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BENCH = join(ROOT, 'bench');
/**
 * Longer than any bench takes in short mode beside another on a busy 2-core machine (the bed's
 * lookups took 170 s under a load of 13); the suite's testTimeout is above it.
 */
const BENCH_TIMEOUT_MS = 420_000;

/**
 * The lines each benchmark prints with a ratio against its in-run baseline: each must be printed
 * with `ratio` in it, as often as it is listed. A bench added to bench/ without its lines here
 * fails the first test, so none is left out of this suite.
 */
const RATIO_LINES: Record<string, string[]> = {
  ablation: [
    'shortlist off (every schema in every call), input tokens per task',
    'shortlist off, input tokens per model call',
    'chain off (one round trip per tool), model calls per task',
    'chain off, input tokens per task',
    'results as screenshots, tokens per step result (OpenAI 1080p)',
    'results as screenshots, input tokens per task (OpenAI 1080p)',
    'hedging off',
  ],
  api: [
    'ticket_get median per call (invoke vs bare fetch)',
    'import 51 operations to 48 tools',
    'ladder walk of ticket_get with its live probe',
  ],
  cli: ['prompt-to-answer median', 'runWrapped on true, median', 'peak memory reading'],
  design: ['drafting ', '3D ', 'IFC ', 'PSD '],
  desktop: ['ratio skill / script at the median'],
  file: ['filtered rows/s (cpu)', 'filtered rows/s (wall)', 'peak memory (MB) filtering'],
  invoke: ['invoke overhead, no-op read', 'invoke overhead, write with ledger', 'lift --version start'],
  mcp: [
    'mcp heap growth MB',
    'mcp stdio calls/s',
    'mcp stdio p99 ms',
    'mcp http calls/s',
    'mcp http p99 ms',
    'mcp http server RSS growth MB',
  ],
  observe: ['median ratio lift/playwright-mcp'],
  office: [
    'build_workbook (marks sheet)',
    'build_deck (6 slides)',
    'build_report (4 sections, contents)',
    'convert_document (csv to pdf)',
  ],
  // Once per lookup: MediaWiki, WordPress, phpMyAdmin, Roundcube.
  'real-apps': Array.from({ length: 4 }, () => [
    'ratio to the script on its own context',
    'ratio to the script on the guarded page',
  ]).flat(),
  replay: ['replay warm median', 'replay cold incl. browser start', 'replay throughput, 4 contexts'],
  scale: ['1 worker(s) on PostgreSQL', '2 worker(s) on PostgreSQL', '3 worker(s) on PostgreSQL'],
  startup: [
    'lift --version',
    'lift tools list',
    "import('lift')",
    'lift serve --stdio initialize',
    'lift serve --stdio tools/list',
  ],
  'tools-list': ['every family configured vs playwright-mcp', 'no family configured vs playwright-mcp'],
  ui: ['observation lookup (tokens)', 'act+verify median (ms)', 'session start (ms)'],
  video: ['timeline ', 'title '],
};

const benches = readdirSync(BENCH)
  .filter((file) => file.endsWith('.bench.ts'))
  .map((file) => file.slice(0, -'.bench.ts'.length))
  .sort();

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** The listed lines the output lacks, each with how many times it was printed with a ratio. */
function missingLines(output: string, wanted: readonly string[]): string[] {
  const withRatio = output.split('\n').filter((line) => /\bratio\b/.test(line));
  return [...new Set(wanted)].flatMap((label) => {
    const listed = wanted.filter((each) => each === label).length;
    const printed = withRatio.filter((line) => line.includes(label)).length;
    return printed >= listed ? [] : [`${label} (printed ${printed} of ${listed})`];
  });
}

/**
 * One bench in short mode, as `npm run bench` starts it (node --import tsx, from the checkout),
 * in a process group of its own so that a bench past its time goes with every browser, database
 * and program it started.
 */
function runShort(name: string): Promise<Run> {
  // The bench's own settings (BENCH_REPLAYS and the like) and Lift's are left out: short mode chooses.
  const env: Record<string, string> = { LIFT_BENCH_SHORT: '1' };
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/^(LIFT_|BENCH_|OBSERVE_DUMP$)/.test(key)) env[key] = value;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(BENCH, `${name}.bench.ts`)], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, BENCH_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, output });
    });
  });
}

it('knows the ratio lines of every bench in bench/', () => {
  expect(Object.keys(RATIO_LINES).sort()).toEqual(benches);
});

// Two at a time (the suite's maxConcurrency): most of a bench is waiting on the programs it
// starts, and each one's servers, folders and ports are its own.
describe.concurrent('every benchmark runs in short mode (LIFT_BENCH_SHORT=1)', () => {
  for (const name of benches) {
    it(`${name}.bench.ts ends with 0 and prints its ratio lines`, async ({ expect }) => {
      const run = await runShort(name);
      const missing = missingLines(run.output, RATIO_LINES[name] ?? []);
      const ended = run.signal
        ? `was killed (${run.signal}) after ${BENCH_TIMEOUT_MS} ms`
        : `exited ${run.code}`;
      expect({ ended, missing }, run.output.slice(-4_000)).toEqual({ ended: 'exited 0', missing: [] });
    });
  }
});
