/**
 * How long Lift takes to start, against bare node and a bare MCP SDK server in the same run:
 *
 *   lift --version, lift tools list, import('lift')    against  node -e 0
 *   lift serve --stdio answering initialize             against  a McpServer with one tool on stdio
 *   lift serve --stdio answering tools/list             against  the same (Lift's ~36 tools load
 *                                                        after the handshake, so this is the full start)
 *
 * Each figure is the median of interleaved rounds (the machine is shared: a neighbour's burst
 * lands on every side alike). Goals: import('lift') under 0.5 s, serve within 1.5x the bare server.
 * Needs the build: npm run bench -- startup   (node --import tsx bench/startup.bench.ts [--runs 9];
 * one round with LIFT_BENCH_SHORT=1, bench/short.ts)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { option } from './short.js';

const ROOT = join(import.meta.dirname, '..');
const LIFT = join(ROOT, 'dist', 'cli', 'main.js');
const INDEX = new URL('../dist/index.js', import.meta.url).href;
const RUNS = option('runs', 9, 1);

const folder = mkdtempSync(join(tmpdir(), 'lift-bench-startup-'));
const home = join(folder, 'home');
writeFileSync(
  join(folder, 'bare-server.mjs'),
  `import { McpServer } from '${import.meta.resolve('@modelcontextprotocol/sdk/server/mcp.js')}';
import { StdioServerTransport } from '${import.meta.resolve('@modelcontextprotocol/sdk/server/stdio.js')}';
import { z } from '${import.meta.resolve('zod')}';
const server = new McpServer({ name: 'bare', version: '1.0.0' });
server.registerTool('noop_read', { description: 'Reads nothing.', inputSchema: { id: z.string() } },
  async ({ id }) => ({ content: [{ type: 'text', text: id }] }));
await server.connect(new StdioServerTransport());
`,
);

interface Side {
  name: string;
  /** Milliseconds from spawn to the moment the side counts as started. */
  time(): Promise<number>;
}

/** Spawn to exit, in milliseconds; a failed run is an error, not a fast figure. */
function untilExit(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: folder,
      env: { ...process.env, LIFT_HOME: home },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`)),
    );
  });
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})}\n`;
const LIST_TOOLS = `${INITIALIZE}${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`;

/** Spawn to the initialize response on stdout, in milliseconds; the server is then closed. */
function untilInitialized(args: string[]): Promise<number> {
  return untilAnswered(args, INITIALIZE, '"id":1');
}

/** Spawn to the tools/list response (sent with initialize at once, as clients do). */
function untilToolsListed(args: string[]): Promise<number> {
  return untilAnswered(args, LIST_TOOLS, '"id":2');
}

function untilAnswered(args: string[], messages: string, answer: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: folder,
      env: { ...process.env, LIFT_HOME: home },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not answer ${answer} in 60 s`));
    }, 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (!stdout.includes(answer)) return;
      const elapsed = performance.now() - started;
      clearTimeout(timer);
      child.once('close', () => resolve(elapsed));
      child.stdin.end();
    });
    child.once('error', reject);
    child.stdin.write(messages);
  });
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function compare(sides: Side[]): Promise<Map<string, number>> {
  const times = new Map<string, number[]>(sides.map((side) => [side.name, []]));
  await Promise.all(sides.map((side) => side.time())); // warm the file cache
  for (let round = 0; round < RUNS; round++)
    for (const side of sides) times.get(side.name)?.push(await side.time());
  return new Map([...times].map(([name, values]) => [name, median(values)]));
}

function line(name: string, lift: number, baseline: number, baselineName: string): void {
  console.log(
    `${name}: lift ${Math.round(lift)} ms, baseline (${baselineName}) ${Math.round(baseline)} ms, ratio ${(lift / baseline).toFixed(2)}`,
  );
}

try {
  console.log(
    `load average before: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}; ${RUNS} rounds`,
  );
  await untilExit([LIFT, 'tools', 'list']); // creates the home, so no side pays for it
  const cli = await compare([
    { name: 'bare', time: () => untilExit(['-e', '0']) },
    { name: 'version', time: () => untilExit([LIFT, '--version']) },
    { name: 'tools', time: () => untilExit([LIFT, 'tools', 'list']) },
    { name: 'import', time: () => untilExit(['--input-type=module', '-e', `await import('${INDEX}')`]) },
  ]);
  const bare = cli.get('bare') ?? Number.NaN;
  line('lift --version', cli.get('version') ?? Number.NaN, bare, 'node -e 0');
  line('lift tools list', cli.get('tools') ?? Number.NaN, bare, 'node -e 0');
  line("import('lift')", cli.get('import') ?? Number.NaN, bare, 'node -e 0');
  const serve = await compare([
    { name: 'bare', time: () => untilInitialized([join(folder, 'bare-server.mjs')]) },
    { name: 'lift', time: () => untilInitialized([LIFT, 'serve', '--stdio']) },
  ]);
  line(
    'lift serve --stdio initialize',
    serve.get('lift') ?? Number.NaN,
    serve.get('bare') ?? Number.NaN,
    'bare SDK server',
  );
  const listed = await compare([
    { name: 'bare', time: () => untilToolsListed([join(folder, 'bare-server.mjs')]) },
    { name: 'lift', time: () => untilToolsListed([LIFT, 'serve', '--stdio']) },
  ]);
  line(
    'lift serve --stdio tools/list',
    listed.get('lift') ?? Number.NaN,
    listed.get('bare') ?? Number.NaN,
    'bare SDK server',
  );
  console.log(
    `load average after: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
