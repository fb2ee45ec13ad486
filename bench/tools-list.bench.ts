/**
 * What a model pays for Lift's tool list, and how fast it comes: `lift serve --stdio`'s
 * tools/list in bytes and o200k tokens, with every tool family configured and with none (a
 * fresh folder), and the warm answer time over stdio (median of 50 requests after 5), beside
 * @playwright/mcp's list measured the same way in the same run. Goals (issue 43 item 1): under
 * 40 KB and 10,000 tokens with every family configured, under 20 KB with none, each under 20 ms
 * warm (1 KB = 1,000 bytes). LIFT_BENCH_SHORT=1 times 5 requests after 1.
 * Run: npm run bench -- tools-list
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { z } from 'zod';
import { builtinTools } from '../src/builtin.js';
import { Runtime } from '../src/runtime/runtime.js';
import { createLiftServer } from '../src/serve/mcp-server.js';
import { connectPlaywrightMcp } from './playwright-mcp.js';
import { iterations, SHORT } from './short.js';

const WARMUP = iterations(5, 1);
const TIMED = iterations(50, 5);
const GOAL = { bytesAll: 40_000, tokensAll: 10_000, bytesNone: 20_000, warmMs: 20 };

const LIFT = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const encoder = new Tiktoken(o200k);
const folder = mkdtempSync(join(tmpdir(), 'lift-bench-tools-list-'));

/** The list as the server sent it: every field kept, nothing the SDK's result schema would drop. */
const AnyResult = z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) });
type Listed = z.infer<typeof AnyResult>;

interface Measured {
  tools: number;
  bytes: number;
  tokens: number;
  firstMs: number;
  warmMs: number;
  largest: Array<{ name: string; bytes: number }>;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Sizes of the first answer, its time since the handshake, and the median warm answer time. */
async function measure(client: Client): Promise<Measured> {
  const list = () => client.request({ method: 'tools/list', params: {} }, AnyResult);
  let started = performance.now();
  const first: Listed = await list();
  const firstMs = performance.now() - started;
  for (let i = 0; i < WARMUP; i++) await list();
  const times: number[] = [];
  for (let i = 0; i < TIMED; i++) {
    started = performance.now();
    await list();
    times.push(performance.now() - started);
  }
  const text = JSON.stringify(first);
  const largest = first.tools
    .map((tool) => ({ name: tool.name, bytes: Buffer.byteLength(JSON.stringify(tool)) }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 5);
  return {
    tools: first.tools.length,
    bytes: Buffer.byteLength(text),
    tokens: encoder.encode(text).length,
    firstMs,
    warmMs: median(times),
    largest,
  };
}

/** Lift's environment: none of the machine's LIFT_* (a stored password would configure a family). */
function liftEnv(home: string, secrets: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('LIFT_')) env[key] = value;
  return { ...env, LIFT_HOME: home, ...secrets };
}

/** `lift serve --stdio` in a folder of its own with this lift.config.json (none when undefined). */
async function measureLift(
  name: string,
  config: Record<string, unknown> | undefined,
  secrets: Record<string, string> = {},
): Promise<Measured> {
  const cwd = join(folder, name);
  mkdirSync(cwd);
  if (config) writeFileSync(join(cwd, 'lift.config.json'), JSON.stringify(config));
  const client = new Client({ name: 'lift-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [LIFT, 'serve', '--stdio'],
      cwd,
      env: liftEnv(join(cwd, '.lift'), secrets),
      stderr: 'ignore',
    }),
  );
  try {
    return await measure(client);
  } finally {
    await client.close();
  }
}

/**
 * The same server in this process over the SDK's in-memory transport, every built-in tool
 * listed: what answering costs the server once the pipe and the JSON text are taken away.
 */
async function measureInProcess(): Promise<number> {
  const runtime = new Runtime({ home: join(folder, 'in-process'), tools: await builtinTools() });
  const lift = createLiftServer(runtime);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await lift.server.connect(serverSide);
  const client = new Client({ name: 'lift-bench', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return (await measure(client)).warmMs;
  } finally {
    await client.close();
    lift.dispose();
    await runtime.close();
  }
}

/** Settings and passwords that configure every family Lift ships (nothing is reached: only listed). */
const EVERY_FAMILY = {
  settings: {
    email: { account: { address: 'bench@example.org' } },
    chat: { account: { jid: 'bench@example.org' } },
    hledger: { journal: 'main.journal' },
    payroll: { root: 'payroll' },
    services: { services: ['demo-worker'] },
  },
};
const EVERY_PASSWORD = {
  LIFT_SECRET_EMAIL_PASSWORD: 'bench-mail-password',
  LIFT_SECRET_CHAT_PASSWORD: 'bench-chat-password',
  LIFT_SECRET_POSTGRES_PASSWORD: 'bench-postgres-password',
};

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');

function report(name: string, lift: Measured, baseline: Measured): void {
  console.log(
    `${name}: ${lift.tools} tools, ${lift.bytes} bytes (${kb(lift.bytes)}), ${lift.tokens} o200k tokens; first answer ${ms(lift.firstMs)} (tools loading), warm median of ${TIMED} ${ms(lift.warmMs)}`,
  );
  console.log(
    `${name} vs playwright-mcp: bytes ratio ${(lift.bytes / baseline.bytes).toFixed(2)}, tokens ratio ${(lift.tokens / baseline.tokens).toFixed(2)}, warm time ratio ${(lift.warmMs / baseline.warmMs).toFixed(2)}`,
  );
  console.log(`  largest: ${lift.largest.map((tool) => `${tool.name} ${tool.bytes}`).join(', ')}`);
}

async function main(): Promise<void> {
  if (!existsSync(LIFT)) throw new Error('Build first: npm run build');
  const playwright = await connectPlaywrightMcp({ dir: folder });
  let baseline: Measured;
  try {
    baseline = await measure(playwright);
  } finally {
    await playwright.close();
  }
  const all = await measureLift('every-family', EVERY_FAMILY, EVERY_PASSWORD);
  const none = await measureLift('no-family', undefined);
  const inProcess = await measureInProcess();
  console.log(
    `playwright-mcp (baseline): ${baseline.tools} tools, ${baseline.bytes} bytes (${kb(baseline.bytes)}), ${baseline.tokens} o200k tokens; warm median of ${TIMED} ${ms(baseline.warmMs)}`,
  );
  report('lift, every family configured', all, baseline);
  report('lift, no family configured', none, baseline);
  console.log(
    `lift server side, every built-in tool over the in-memory transport (no pipe, no JSON text): warm median of ${TIMED} ${ms(inProcess)}`,
  );
  console.log(
    `goal every family configured under 40 KB: ${met(all.bytes < GOAL.bytesAll)} (${kb(all.bytes)}); under 10,000 tokens: ${met(all.tokens < GOAL.tokensAll)} (${all.tokens})`,
  );
  console.log(
    `goal no family configured under 20 KB: ${met(none.bytes < GOAL.bytesNone)} (${kb(none.bytes)})`,
  );
  console.log(
    `goal warm answer under 20 ms: every family ${met(all.warmMs < GOAL.warmMs)} (${ms(all.warmMs)}), none ${met(none.warmMs < GOAL.warmMs)} (${ms(none.warmMs)})`,
  );
  if (SHORT) console.log('(LIFT_BENCH_SHORT=1: few requests; the times mean little)');
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(folder, { recursive: true, force: true }));
