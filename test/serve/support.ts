import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { builtinTools } from '../../src/builtin.js';
import type { AnyTool } from '../../src/contract/define-tool.js';
import { byToolName } from '../../src/runtime/registry.js';
import { approvalStatusTool } from '../../src/serve/approval-status.js';
import { tools as fixtureTools } from './fixtures/tools.js';

export const LIFT = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
export const TOOLS_MODULE = join(import.meta.dirname, 'fixtures', 'tools.ts');
// A serve token must hold 128 bits (lift serve --http refuses a weaker one); the canary prefix finds leaks.
export const TOKEN = 'canary-serve-token-Nt2tf7pNeuc0UVEWTKn0CD_k66aZ_NP';

/** Every tool registered in a workspace: the built-in ones and the fixture's, by name. */
export async function registeredTools(): Promise<AnyTool[]> {
  return [...(await builtinTools()), ...fixtureTools].sort(byToolName);
}

/**
 * The groups of the built-in tools that need settings or a password a workspace does not give
 * (email, chat, hledger, payroll, services, postgres): lift serve hides them there.
 */
export const UNCONFIGURED_GROUPS: ReadonlySet<string> = new Set([
  'accounting',
  'chat',
  'email',
  'payroll',
  'postgres',
  'services',
]);

/**
 * Every tool `lift serve` lists in a workspace: the registered ones whose family is configured
 * or needs no configuration, and the server's own (approval_status).
 */
export async function servedTools(): Promise<AnyTool[]> {
  const own = approvalStatusTool(() => undefined);
  const shown = (await registeredTools()).filter((tool) => !UNCONFIGURED_GROUPS.has(tool.group ?? ''));
  return [...shown, own].sort(byToolName);
}

/** A temporary working folder whose lift.config.json names the fixture tools, with its own Lift home. */
export interface Workspace {
  cwd: string;
  home: string;
  env: Record<string, string>;
  remove(): void;
}

/** `config` adds to lift.config.json beside the fixture tools. */
export function workspace(options: { token?: boolean; config?: Record<string, unknown> } = {}): Workspace {
  const cwd = mkdtempSync(join(tmpdir(), 'lift-serve-'));
  writeFileSync(join(cwd, 'lift.config.json'), JSON.stringify({ tools: [TOOLS_MODULE], ...options.config }));
  const home = join(cwd, '.lift');
  const env: Record<string, string> = { LIFT_HOME: home };
  if (options.token) env.LIFT_SECRET_SERVE_TOKEN = TOKEN;
  return { cwd, home, env, remove: () => rmSync(cwd, { recursive: true, force: true }) };
}

function childEnv(ws: Workspace): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('LIFT_')) env[key] = value;
  }
  return { ...env, ...ws.env };
}

export type ElicitAnswer = (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;

function newClient(elicit?: ElicitAnswer): Client {
  const client = new Client(
    { name: 'lift-test', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  return client;
}

/** Starts the real `lift serve --stdio` (with any further arguments) and connects the SDK's client to it. */
export async function connectStdio(
  ws: Workspace,
  elicit?: ElicitAnswer,
  extraArgs: string[] = [],
): Promise<Client> {
  const client = newClient(elicit);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [LIFT, 'serve', '--stdio', ...extraArgs],
    cwd: ws.cwd,
    env: childEnv(ws),
    stderr: 'pipe',
  });
  await client.connect(transport, { timeout: 60_000 });
  return client;
}

export interface HttpServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the real `lift serve --http 0` (with any further arguments) and waits for the address it prints. */
export function startHttp(ws: Workspace, extraArgs: string[] = []): Promise<HttpServer> {
  const child = spawn(process.execPath, [LIFT, 'serve', '--http', '0', ...extraArgs], {
    cwd: ws.cwd,
    env: childEnv(ws),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`lift serve --http printed no address in 60 s:\n${stderr}`));
    }, 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /(http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`lift serve --http exited with ${code}:\n${stderr}`));
    });
  });
}

export async function connectHttp(url: string, token: string, elicit?: ElicitAnswer): Promise<Client> {
  const client = newClient(elicit);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport, { timeout: 60_000 });
  return client;
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `lift` command in the workspace. */
export function runLift(ws: Workspace, args: string[], timeoutMs = 60_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LIFT, ...args], {
      cwd: ws.cwd,
      env: childEnv(ws),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`lift ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The parts of an envelope that differ between two runs of the same call. */
export function stable(envelope: Record<string, unknown>): Record<string, unknown> {
  const { run_id: _run, duration_ms: _duration, ...rest } = envelope;
  return rest;
}
