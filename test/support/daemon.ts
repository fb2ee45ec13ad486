import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** A server program started in the foreground, in its own process group, for one test file. */
export interface Daemon {
  child: ChildProcess;
  /** Why the program ended by itself (its exit code, error output and log), while it has not. */
  death(): string | undefined;
  /** Stops the whole process group: TERM, then KILL if it is still there after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export function startDaemon(program: string, args: string[], options: { cwd?: string; log: string }): Daemon {
  const child = spawn(program, args, {
    cwd: options.cwd,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' },
  });
  let stderr = '';
  let death: string | undefined;
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8_000);
  });
  child.on('exit', (code, signal) => {
    death = `${program} exited (${code ?? signal}): ${stderr}\n${tail(options.log)}`;
  });
  child.on('error', (error) => {
    death = `${program} could not start: ${error.message}`;
  });
  return {
    child,
    death: () => death,
    stop: (graceMs = 5_000) => stopGroup(child, graceMs),
  };
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-4_000);
  } catch {
    return '';
  }
}

async function stopGroup(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  // Workers that outlived their master (they share its group) go too.
  signalGroup(child.pid, 'SIGKILL');
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * Waits until a TCP server on 127.0.0.1:`port` greets with text matching `greeting`
 * (IMAP `* OK`, SMTP `220`), or fails with the program's log once `timeoutMs` passed.
 */
export async function waitForGreeting(
  daemon: Daemon | undefined,
  port: number,
  greeting: RegExp,
  options: { timeoutMs?: number; log: string },
): Promise<void> {
  const until = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const death = daemon?.death();
    if (death) throw new Error(death);
    if (await greets(port, greeting)) return;
    if (Date.now() > until) {
      throw new Error(`Nothing greeted on 127.0.0.1:${port} within the bound.\n${tail(options.log)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until 127.0.0.1:`port` takes connections (for protocols where the client speaks first). */
export async function waitForPort(
  daemon: Daemon | undefined,
  port: number,
  options: { timeoutMs?: number; log: string },
): Promise<void> {
  const until = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const death = daemon?.death();
    if (death) throw new Error(death);
    if (await accepts(port)) return;
    if (Date.now() > until) {
      throw new Error(`Nothing listened on 127.0.0.1:${port} within the bound.\n${tail(options.log)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(false));
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
  });
}

function greets(port: number, greeting: RegExp): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      if (greeting.test(text)) done(true);
    });
    socket.on('close', () => resolve(greeting.test(text)));
  });
}
