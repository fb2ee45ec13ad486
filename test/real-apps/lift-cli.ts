import { execFile } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');

/** Runs `lift` from the source (the bed's suite runs without a build), node directly. */
export function lift(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { env: { ...process.env, ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }),
    );
  });
}
