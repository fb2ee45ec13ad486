/**
 * What `invoke` adds to a call: a no-op read tool through the whole contract (validation,
 * gate, deadline, verify, cap, scrub, event log) against calling the function directly,
 * and a write through the idempotency ledger. Also `lift --version` start time.
 * LIFT_BENCH_SHORT=1: a few calls of each (bench/short.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../src/contract/define-tool.js';
import { RequestIdSchema } from '../src/contract/request-id.js';
import { Runtime } from '../src/runtime/runtime.js';
import { iterations } from './short.js';

const N = iterations(5_000, 20);
const WARM_UP = iterations(500, 5);
const STARTS = iterations(15, 1);

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const noopRead = defineTool({
  name: 'noop_read',
  description: 'Reads nothing. Returns an empty answer.',
  rung: 'api',
  input: z.strictObject({ id: z.string().max(20) }),
  output: z.object({ id: z.string() }),
  effect: { class: 'read' },
  timeout: { deadlineMs: 1_000 },
  run: async (input) => ({ fields: { id: input.id }, summary: 'nothing' }),
});

const noopWrite = defineTool({
  name: 'noop_write',
  description: 'Writes nothing, but through the ledger. Returns the id.',
  rung: 'api',
  input: z.strictObject({ id: z.string().max(20), request_id: RequestIdSchema }),
  output: z.object({ id: z.string() }),
  effect: { class: 'reversible', gate: 'none' },
  timeout: { deadlineMs: 1_000 },
  run: async (input) => ({ fields: { id: input.id }, summary: 'nothing' }),
});

const home = mkdtempSync(join(tmpdir(), 'lift-bench-'));
const runtime = new Runtime({ home, tools: [noopRead, noopWrite] });
const context = {} as Parameters<typeof noopRead.run>[1];

async function time(calls: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await call(i);
    samples.push(performance.now() - start);
  }
  return samples;
}

await time(WARM_UP, (i) => runtime.invoke('noop_read', { id: `w${i}` })); // warm up
const directSamples = await time(N, (i) => noopRead.run({ id: `d${i}` }, context));
const readSamples = await time(N, (i) => runtime.invoke('noop_read', { id: `r${i}` }));
const writeSamples = await time(N, (i) =>
  runtime.invoke('noop_write', { id: `x${i}`, request_id: `req-${i}` }),
);
const [direct, read, write] = [directSamples, readSamples, writeSamples].map(median) as [
  number,
  number,
  number,
];
await runtime.close();
rmSync(home, { recursive: true, force: true });

const ms = (value: number) => `${value.toFixed(4)} ms`;
console.log(
  `invoke overhead, no-op read (median of ${N}): lift ${ms(read)}, baseline direct call ${ms(direct)}, ratio ${(read / direct).toFixed(1)}x, added ${ms(read - direct)} (target < 0.2 ms); mean ${ms(mean(readSamples))} with the batched run-log writes`,
);
console.log(
  `invoke overhead, write with ledger (median of ${N}): lift ${ms(write)}, baseline direct call ${ms(direct)}, ratio ${(write / direct).toFixed(1)}x, added ${ms(write - direct)} (target < 1 ms); mean ${ms(mean(writeSamples))}`,
);

const main = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const starts: number[] = [];
const bare: number[] = [];
for (let i = 0; i < STARTS; i++) {
  let start = performance.now();
  spawnSync(process.execPath, [main, '--version']);
  starts.push(performance.now() - start);
  start = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  bare.push(performance.now() - start);
}
console.log(
  `lift --version start (median of ${STARTS}): lift ${median(starts).toFixed(0)} ms, baseline bare node ${median(bare).toFixed(0)} ms, ratio ${(median(starts) / median(bare)).toFixed(2)}x (target < 300 ms)`,
);
