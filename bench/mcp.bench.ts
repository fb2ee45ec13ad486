/**
 * Tool calls per second through `lift serve` for a no-op read, over stdio and over
 * Streamable HTTP, against a minimal server written directly with the MCP SDK in the same
 * run (target: Lift at least 0.8x). Also p50 and p99 latency, and the server's memory
 * after 10,000 calls. Needs the build: npm run build && node --import tsx bench/mcp.bench.ts
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { defineTool } from '../src/contract/define-tool.js';
import { Runtime } from '../src/runtime/runtime.js';
import { createLiftServer } from '../src/serve/mcp-server.js';

const LIFT = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const TOKEN = 'bench-token-5b1e2d';
const WARMUP = 300;
const MEASURED = 1_000;
/**
 * Interleaved rounds per side. These machines are shared: a round can lose half its speed
 * to a neighbour, so each side's best of seven says more than its best of three.
 */
const ROUNDS = 7;
const MEMORY_CALLS = 10_000;

const folder = mkdtempSync(join(tmpdir(), 'lift-bench-mcp-'));
const url = (specifier: string) => import.meta.resolve(specifier);

/** The Lift side: one no-op read declared with defineTool, loaded through lift.config.json. */
writeFileSync(
  join(folder, 'tools.mjs'),
  `import { z } from '${url('zod')}';
import { defineTool } from '${new URL('../dist/contract/define-tool.js', import.meta.url).href}';
export const tools = [defineTool({
  name: 'noop_read',
  description: 'Reads nothing and returns the id it was given.',
  rung: 'api',
  input: z.strictObject({ id: z.string().max(20) }),
  output: z.object({ id: z.string() }),
  effect: { class: 'read' },
  timeout: { deadlineMs: 5000 },
  example: { id: 'a' },
  run: async ({ id }) => ({ fields: { id }, summary: 'nothing' }),
})];
`,
);
writeFileSync(join(folder, 'lift.config.json'), JSON.stringify({ tools: ['./tools.mjs'] }));

/** The baseline: the same tool written directly with the SDK's McpServer, stateful HTTP sessions like Lift's. */
writeFileSync(
  join(folder, 'bare.mjs'),
  `import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { z } from '${url('zod')}';
import { McpServer } from '${url('@modelcontextprotocol/sdk/server/mcp.js')}';
import { StdioServerTransport } from '${url('@modelcontextprotocol/sdk/server/stdio.js')}';
import { StreamableHTTPServerTransport } from '${url('@modelcontextprotocol/sdk/server/streamableHttp.js')}';
import { isInitializeRequest } from '${url('@modelcontextprotocol/sdk/types.js')}';
function build() {
  const server = new McpServer({ name: 'bare', version: '1.0.0' });
  server.registerTool('noop_read', {
    description: 'Reads nothing and returns the id it was given.',
    inputSchema: { id: z.string().max(20) },
    outputSchema: { id: z.string() },
    annotations: { readOnlyHint: true },
  }, async ({ id }) => ({ content: [{ type: 'text', text: 'nothing' }], structuredContent: { id } }));
  return server;
}
if (process.argv[2] === 'stdio') {
  await build().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    if (id) return sessions.get(id).handleRequest(req, res);
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString());
    if (!isInitializeRequest(body)) { res.writeHead(400).end(); return; }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => sessions.set(sid, transport) });
    await build().connect(transport);
    await transport.handleRequest(req, res, body);
  });
  http.keepAliveTimeout = 65000;
  http.headersTimeout = 66000;
  http.listen(0, '127.0.0.1', () => process.stderr.write('http://127.0.0.1:' + http.address().port + '/mcp\\n'));
}
`,
);

const env: Record<string, string> = {};
for (const [key, value] of Object.entries(process.env))
  if (value !== undefined && !key.startsWith('LIFT_')) env[key] = value;
env.LIFT_HOME = join(folder, '.lift');
env.LIFT_SECRET_SERVE_TOKEN = TOKEN;

interface Target {
  client: Client;
  pid: number;
  stop(): Promise<void>;
}

async function stdioTarget(args: string[]): Promise<Target> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: folder,
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport, { timeout: 60_000 });
  return { client, pid: transport.pid ?? 0, stop: () => client.close() };
}

function httpTarget(args: string[], headers: Record<string, string>): Promise<Target> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: folder,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no address in 60 s: ${stderr}`)), 60_000);
    child.stderr?.on('data', async (chunk: Buffer) => {
      stderr += chunk.toString();
      const address = /(http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (!address || stderr.includes('\u0000')) return;
      stderr += '\u0000';
      clearTimeout(timer);
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(address), { requestInit: { headers } }));
      resolve({
        client,
        pid: child.pid ?? 0,
        stop: async () => {
          await client.close();
          child.kill('SIGTERM');
        },
      });
    });
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/** Sequential calls: each one's latency, and calls per second over the whole run. */
interface Measured {
  perSecond: number;
  p50: number;
  p99: number;
}

async function measure(target: Target, calls: number): Promise<Measured> {
  const latencies: number[] = [];
  const start = performance.now();
  for (let index = 0; index < calls; index++) {
    const t0 = performance.now();
    const result = await target.client.callTool({ name: 'noop_read', arguments: { id: `n${index % 100}` } });
    latencies.push(performance.now() - t0);
    if (result.isError) throw new Error(`call failed: ${JSON.stringify(result)}`);
  }
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: calls / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

function line(name: string, lift: number, baseline: number, digits = 0): void {
  console.log(
    `${name}: lift ${lift.toFixed(digits)}, baseline ${baseline.toFixed(digits)}, ratio ${(lift / baseline).toFixed(2)}`,
  );
}

async function compare(transport: string, lift: Target, bare: Target): Promise<void> {
  await measure(lift, WARMUP);
  await measure(bare, WARMUP);
  const rssWarm = rssMb(lift.pid);
  // Interleaved rounds, best of each side, so a busy moment on the machine hits both.
  const rounds: Record<'lift' | 'bare', Measured[]> = { lift: [], bare: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.lift.push(await measure(lift, MEASURED));
    rounds.bare.push(await measure(bare, MEASURED));
  }
  const best = (list: Measured[]) => list.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
  const l = best(rounds.lift);
  const b = best(rounds.bare);
  line(`mcp ${transport} calls/s (no-op read, sequential)`, l.perSecond, b.perSecond);
  line(`mcp ${transport} p50 ms`, l.p50, b.p50, 3);
  line(`mcp ${transport} p99 ms`, l.p99, b.p99, 3);
  await measure(lift, MEMORY_CALLS - WARMUP - ROUNDS * MEASURED);
  const rssBare = rssMb(bare.pid);
  console.log(
    `mcp ${transport} server RSS MB: lift ${rssWarm} after ${WARMUP} calls, ${rssMb(lift.pid)} after ${MEMORY_CALLS} calls; baseline ${rssBare} after ${WARMUP + ROUNDS * MEASURED} calls`,
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
    const target: Target = { client, pid: process.pid, stop: () => client.close() };
    await measure(target, 1_000);
    gc();
    const first = process.memoryUsage().heapUsed;
    await measure(target, MEMORY_CALLS - 1_000);
    gc();
    heap[name] = [first / 1e6, process.memoryUsage().heapUsed / 1e6];
    await target.stop();
  }
  await runtime.close();
  const [liftFirst = 0, liftLast = 0] = heap.lift ?? [];
  const [bareFirst = 0, bareLast = 0] = heap.baseline ?? [];
  line(
    `mcp heap growth MB from 1000 to ${MEMORY_CALLS} calls (in-process, after gc)`,
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
        ? await stdioTarget([LIFT, 'serve', '--stdio'])
        : await httpTarget([LIFT, 'serve', '--http', '0'], { authorization: `Bearer ${TOKEN}` });
    const bare =
      transport === 'stdio'
        ? await stdioTarget([bareScript, 'stdio'])
        : await httpTarget([bareScript, 'http'], {});
    try {
      await lift.client.listTools();
      await bare.client.listTools();
      await compare(transport, lift, bare);
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
    // The SDK's HTTP client keeps pooled sockets (and their abort listeners) alive after close().
    process.exit();
  });
