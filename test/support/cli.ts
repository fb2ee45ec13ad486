import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const LIFT_BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `lift` command (node directly, so a kill reaches the real process). */
export function lift(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; input?: string; timeoutMs?: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LIFT_BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
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
      reject(
        new Error(`lift ${args.join(' ')} did not finish in ${options.timeoutMs ?? 60_000} ms\n${stderr}`),
      );
    }, options.timeoutMs ?? 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export function startLift(
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): ChildProcess {
  return spawn(process.execPath, [LIFT_BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
