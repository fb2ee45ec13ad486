/**
 * The two servers of the MCP bench, as child processes reached over stdio or Streamable
 * HTTP: `lift serve` with one no-op read declared with defineTool, and the same tool written
 * directly with the SDK's McpServer. Plus the sequential call loop both are measured with.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isolatedAbortFetch } from '../test/support/isolated-abort-fetch.js';

/** 256 random bits: `lift serve --http` refuses a serve token under 128. */
export const TOKEN = randomBytes(32).toString('hex');
const url = (specifier: string) => import.meta.resolve(specifier);

/** Writes both servers' code and Lift's config into `folder`. */
export function writeServers(folder: string): void {
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
  // The baseline: the same tool with the SDK's McpServer, stateful HTTP sessions like Lift's.
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
}

export interface Target {
  client: Client;
  pid: number;
  /** Lines the server wrote to stderr that Node marks as warnings (a leak shows up here). */
  warnings(): string[];
  stop(): Promise<void>;
}

function warningLines(text: string): string[] {
  return text.split('\n').filter((line) => /Warning:/.test(line));
}

export async function stdioTarget(
  folder: string,
  env: Record<string, string>,
  args: string[],
): Promise<Target> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: folder,
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport, { timeout: 60_000 });
  return {
    client,
    pid: transport.pid ?? 0,
    warnings: () => warningLines(stderr),
    stop: () => client.close(),
  };
}

export function httpTarget(
  folder: string,
  env: Record<string, string>,
  args: string[],
  headers: Record<string, string>,
): Promise<Target> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: folder,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    let connecting = false;
    const timer = setTimeout(() => reject(new Error(`no address in 60 s: ${stderr}`)), 60_000);
    // A server that refuses to start says why on stderr and exits: no need to wait out the timer.
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!connecting) reject(new Error(`${args.join(' ')} exited ${code} before its address: ${stderr}`));
    });
    child.stderr?.on('data', async (chunk: Buffer) => {
      stderr += chunk.toString();
      const address = /(http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (!address || connecting) return;
      connecting = true;
      clearTimeout(timer);
      const client = new Client({ name: 'bench', version: '1' });
      // Both sides' clients give each request its own signal: the SDK's shared one makes the
      // client warn of abort listeners, which is not what this bench measures.
      const transport = new StreamableHTTPClientTransport(new URL(address), {
        fetch: isolatedAbortFetch,
        requestInit: { headers },
      });
      await client.connect(transport);
      resolve({
        client,
        pid: child.pid ?? 0,
        warnings: () => warningLines(stderr),
        stop: async () => {
          await client.close();
          child.kill('SIGTERM');
        },
      });
    });
  });
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/** Sequential calls: each one's latency, and calls per second over the whole run. */
export interface Measured {
  perSecond: number;
  p50: number;
  p99: number;
}

export async function measure(client: Client, calls: number): Promise<Measured> {
  const latencies: number[] = [];
  const start = performance.now();
  for (let index = 0; index < calls; index++) {
    const t0 = performance.now();
    const result = await client.callTool({ name: 'noop_read', arguments: { id: `n${index % 100}` } });
    latencies.push(performance.now() - t0);
    if (result.isError) throw new Error(`call failed: ${JSON.stringify(result)}`);
  }
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: calls / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export function line(name: string, lift: number, baseline: number, digits = 0): void {
  console.log(
    `${name}: lift ${lift.toFixed(digits)}, baseline ${baseline.toFixed(digits)}, ratio ${(lift / baseline).toFixed(2)}`,
  );
}
