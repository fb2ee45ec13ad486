/**
 * Tool calls per second through `lift serve` for a no-op read, over stdio and over
 * Streamable HTTP, against a minimal server written directly with the MCP SDK in the same
 * run (targets: Lift at least 0.9x, p99 at most 1.5x). Memory: the heap after collection
 * in-process, and each server's RSS over a long run of HTTP calls (flat over 100,000 calls;
 * BENCH_MCP_LONG_CALLS changes the length). Needs the build: npm run build && node --import
 * tsx bench/mcp.bench.ts   (LIFT_BENCH_SHORT=1: tens of calls in place of thousands, bench/short.ts)
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { defineTool } from '../src/contract/define-tool.js';
import { Runtime } from '../src/runtime/runtime.js';
import { createLiftServer } from '../src/serve/mcp-server.js';
import {
  httpTarget,
  line,
  type Measured,
  measure,
  rssMb,
  stdioTarget,
  type Target,
  TOKEN,
  writeServers,
} from './mcp-targets.js';
import { iterations, setting } from './short.js';

const LIFT = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const WARMUP = iterations(300, 10);
const MEASURED = iterations(1_000, 20);
/**
 * Interleaved rounds per side. These machines are shared: a round can lose half its speed
 * to a neighbour, so each side's best of seven says more than its best of three.
 */
const ROUNDS = iterations(7, 2);
const MEMORY_CALLS = iterations(10_000, 100);
const LONG_CALLS = setting('BENCH_MCP_LONG_CALLS', 100_000, 300);
/** The fewest calls between two RSS samples of the long run. */
const LONG_STEP = iterations(1_000, 100);
/** Calls before the first heap reading, past warm-up. */
const HEAP_FIRST = iterations(1_000, 20);

const folder = mkdtempSync(join(tmpdir(), 'lift-bench-mcp-'));
writeServers(folder);

const env: Record<string, string> = {};
for (const [key, value] of Object.entries(process.env))
  if (value !== undefined && !key.startsWith('LIFT_')) env[key] = value;
env.LIFT_HOME = join(folder, '.lift');
env.LIFT_SECRET_SERVE_TOKEN = TOKEN;

async function compare(transport: string, lift: Target, bare: Target): Promise<void> {
  await measure(lift.client, WARMUP);
  await measure(bare.client, WARMUP);
  const rssWarm = { lift: rssMb(lift.pid), bare: rssMb(bare.pid) };
  // Interleaved rounds, best of each side, so a busy moment on the machine hits both.
  const rounds: Record<'lift' | 'bare', Measured[]> = { lift: [], bare: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.lift.push(await measure(lift.client, MEASURED));
    rounds.bare.push(await measure(bare.client, MEASURED));
  }
  const best = (list: Measured[]) => list.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
  const l = best(rounds.lift);
  const b = best(rounds.bare);
  line(`mcp ${transport} calls/s (no-op read, sequential)`, l.perSecond, b.perSecond);
  line(`mcp ${transport} p50 ms`, l.p50, b.p50, 3);
  line(`mcp ${transport} p99 ms`, l.p99, b.p99, 3);
  const rest = MEMORY_CALLS - WARMUP - ROUNDS * MEASURED;
  await measure(lift.client, rest);
  await measure(bare.client, rest);
  console.log(
    `mcp ${transport} server RSS MB after ${WARMUP} and ${MEMORY_CALLS} calls: lift ${rssWarm.lift} -> ${rssMb(lift.pid)}, baseline ${rssWarm.bare} -> ${rssMb(bare.pid)}`,
  );
}

/**
 * RSS of both servers from MEMORY_CALLS (past warm-up: JIT, heap sizing, run-log batches) to
 * LONG_CALLS calls, sampled ten times along the way.
 */
async function longRun(lift: Target, bare: Target): Promise<void> {
  const samples: Record<'lift' | 'bare', number[]> = { lift: [rssMb(lift.pid)], bare: [rssMb(bare.pid)] };
  const step = Math.max(LONG_STEP, Math.floor((LONG_CALLS - MEMORY_CALLS) / 9));
  for (let done = MEMORY_CALLS; done < LONG_CALLS; ) {
    const next = Math.min(LONG_CALLS, done + step);
    await measure(lift.client, next - done);
    await measure(bare.client, next - done);
    done = next;
    samples.lift.push(rssMb(lift.pid));
    samples.bare.push(rssMb(bare.pid));
  }
  const span = (list: number[]) => `${Math.min(...list)}-${Math.max(...list)}`;
  const growth = (list: number[]) => (list.at(-1) ?? 0) - (list[0] ?? 0);
  line(
    `mcp http server RSS growth MB from ${MEMORY_CALLS} to ${LONG_CALLS} calls`,
    growth(samples.lift),
    growth(samples.bare),
    1,
  );
  console.log(
    `mcp http server RSS MB over the long run (${samples.lift.length} samples): lift ${span(samples.lift)}, baseline ${span(samples.bare)}`,
  );
  console.log(
    `mcp http server warnings: lift ${lift.warnings().length}, baseline ${bare.warnings().length}${lift.warnings()[0] ? ` (${lift.warnings()[0]})` : ''}`,
  );
}

/**
 * Memory without the noise of a child's RSS: the same servers in this process over the
 * SDK's in-memory transport, heap measured after a full collection at 1,000 and 10,000 calls.
 */
async function heapGrowth(): Promise<void> {
  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as () => void;
  const noopRead = defineTool({
    name: 'noop_read',
    description: 'Reads nothing and returns the id it was given.',
    rung: 'api',
    input: z.strictObject({ id: z.string().max(20) }),
    output: z.object({ id: z.string() }),
    effect: { class: 'read' },
    timeout: { deadlineMs: 5_000 },
    run: async ({ id }) => ({ fields: { id }, summary: 'nothing' }),
  });
  const runtime = new Runtime({ home: join(folder, 'heap'), tools: [noopRead] });
  const bareServer = new McpServer({ name: 'bare', version: '1.0.0' });
  bareServer.registerTool(
    'noop_read',
    { inputSchema: { id: z.string().max(20) }, outputSchema: { id: z.string() } },
    async ({ id }) => ({
      content: [{ type: 'text', text: 'nothing' }],
      structuredContent: { id },
    }),
  );
  const heap: Record<string, number[]> = {};
  for (const [name, server] of [
    ['lift', createLiftServer(runtime).server],
    ['baseline', bareServer.server],
  ] as const) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(clientSide);
    await measure(client, HEAP_FIRST);
    gc();
    const first = process.memoryUsage().heapUsed;
    await measure(client, MEMORY_CALLS - HEAP_FIRST);
    gc();
    heap[name] = [first / 1e6, process.memoryUsage().heapUsed / 1e6];
    await client.close();
  }
  await runtime.close();
  const [liftFirst = 0, liftLast = 0] = heap.lift ?? [];
  const [bareFirst = 0, bareLast = 0] = heap.baseline ?? [];
  line(
    `mcp heap growth MB from ${HEAP_FIRST} to ${MEMORY_CALLS} calls (in-process, after gc)`,
    liftLast - liftFirst,
    bareLast - bareFirst,
    2,
  );
  console.log(
    `mcp heap MB after ${MEMORY_CALLS} calls: lift ${liftLast.toFixed(1)}, baseline ${bareLast.toFixed(1)}`,
  );
}

async function main(): Promise<void> {
  if (!existsSync(LIFT)) throw new Error('Build first: npm run build');
  await heapGrowth();
  const bareScript = join(folder, 'bare.mjs');
  for (const transport of ['stdio', 'http'] as const) {
    const lift =
      transport === 'stdio'
        ? await stdioTarget(folder, env, [LIFT, 'serve', '--stdio'])
        : await httpTarget(folder, env, [LIFT, 'serve', '--http', '0'], { authorization: `Bearer ${TOKEN}` });
    const bare =
      transport === 'stdio'
        ? await stdioTarget(folder, env, [bareScript, 'stdio'])
        : await httpTarget(folder, env, [bareScript, 'http'], {});
    try {
      await lift.client.listTools();
      await bare.client.listTools();
      await compare(transport, lift, bare);
      if (transport === 'http' && LONG_CALLS > MEMORY_CALLS) await longRun(lift, bare);
    } finally {
      await lift.stop();
      await bare.stop();
    }
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    rmSync(folder, { recursive: true, force: true });
    process.exit();
  });
