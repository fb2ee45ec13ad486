import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A server the bed started, in a process group of its own so that stopping it leaves nothing behind. */
export interface Service {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Last lines of the service's log, for error messages. */
  tail(lines?: number): string;
  running(): boolean;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  logFile: string;
}

const groups = new Set<number>();

// A test worker that ends without its afterAll hooks must not leave servers on the machine.
process.once('exit', () => {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

function tailOf(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

async function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

/** Starts `program` detached in its own process group, its output appended to `logFile`. */
export function startService(
  name: string,
  program: string,
  args: string[],
  options: ServiceOptions,
): Service {
  const log = openSync(options.logFile, 'a');
  const child = spawn(program, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${name} did not start: ${program} could not be spawned.`);
  groups.add(pid);
  child.once('exit', () => groups.delete(pid));
  return {
    name,
    pid,
    logFile: options.logFile,
    tail: (lines = 20) => tailOf(options.logFile, lines),
    running: () => child.exitCode === null && child.signalCode === null,
    stop: async () => {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        return;
      }
      if (!(await waitForExit(child, 10_000))) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // Exited between the two signals.
        }
        await waitForExit(child, 5_000);
      }
      groups.delete(pid);
    },
  };
}

/** Polls `check` until it returns a value other than undefined, for at most `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  options: { timeoutMs: number; service?: Service },
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (options.service && !options.service.running()) {
      throw new Error(`${options.service.name} exited while waiting for ${what}:\n${options.service.tail()}`);
    }
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await sleep(100);
  }
  const detail = options.service ? `\n${options.service.tail()}` : '';
  const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  throw new Error(`Timed out after ${options.timeoutMs} ms waiting for ${what}${cause}.${detail}`);
}

export { freePort } from '../../support/free-port.js';

export interface RunOptions {
  input?: string;
  /** A file whose content becomes the program's standard input (SQL dumps). */
  inputFile?: string;
  /** A file that receives the program's standard output (SQL dumps). */
  outputFile?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
}

/** Runs a program to completion and returns its output; rejects with its stderr when it fails. */
export function run(program: string, args: string[], options: RunOptions = {}): Promise<string> {
  const stdin = options.inputFile
    ? openSync(options.inputFile, 'r')
    : options.input !== undefined
      ? 'pipe'
      : 'ignore';
  const stdout = options.outputFile ? openSync(options.outputFile, 'w') : 'pipe';
  const child = spawn(program, args, {
    stdio: [stdin, stdout, 'pipe'],
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  if (typeof stdin === 'number') closeSync(stdin);
  if (typeof stdout === 'number') closeSync(stdout);
  const output: Buffer[] = [];
  const errors: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => errors.push(chunk));
  if (child.stdin) {
    // A program may exit before reading all of its input; its exit code tells what happened.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  }
  const timeoutMs = options.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const text = Buffer.concat(output).toString('utf8');
      if (code === 0) return resolve(text);
      const why = signal === 'SIGKILL' ? `timed out after ${timeoutMs} ms` : `exited with ${code ?? signal}`;
      const detail = (Buffer.concat(errors).toString('utf8') || text).trim().slice(-4_000);
      reject(new Error(`${program} ${args.join(' ')} ${why}: ${detail}`));
    });
  });
}

/** A fresh folder that system users (mysql, dovecot, mail) can traverse; removed by `remove()`. */
export function bedFolder(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(path, 0o755);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
