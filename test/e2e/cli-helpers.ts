import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const LIFT = resolve(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');

/** Runs the built lift command; bounded, never left running. */
export function lift(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs = 90_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [LIFT, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The back office's member lookup as `lift session act` takes it: the bound member ID, then Look up. */
export const LOOK_UP_MEMBER = JSON.stringify([
  {
    op: 'fill',
    target: { frame: ['Workspace'], locator: { by: 'label', label: 'Member ID' } },
    value: { input: 'memberId' },
  },
  {
    op: 'click',
    target: { frame: ['Workspace'], locator: { by: 'role', role: 'button', name: 'Look up' } },
  },
]);
