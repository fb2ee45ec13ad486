import { LiftError } from '../../../src/contract/errors.js';
import { groupMembers, readStat } from '../../../src/rungs/cli/processes.js';

/** Runs a promise that must fail and returns its LiftError with the time it took. */
export async function failure(promise: Promise<unknown>): Promise<{ error: LiftError; ms: number }> {
  const started = performance.now();
  try {
    await promise;
  } catch (error) {
    if (error instanceof LiftError) return { error, ms: performance.now() - started };
    throw error;
  }
  throw new Error('Expected the call to fail, but it succeeded.');
}

/** Whether a process is gone (or only a zombie waiting to be reaped). */
export function gone(pid: number): boolean {
  const stat = readStat(pid);
  return stat === undefined || stat.state === 'Z';
}

/** Live processes of a process group, read from /proc. */
export function liveInGroup(pgid: number): number[] {
  return groupMembers(pgid).map((stat) => stat.pid);
}

export const FIXTURES = new URL('../../fixtures/cli/', import.meta.url).pathname;

/**
 * How long the program takes to start and end on its own (`python3 -c pass`), measured now.
 * Hang-detection bounds are "under 1 s beyond the program's own start-up", so that a busy
 * machine slowing the interpreter down does not read as a slow wrapper.
 */
export async function startupMs(program: string, args: string[]): Promise<number> {
  const { spawn } = await import('node:child_process');
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(program, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve());
  });
  return performance.now() - started;
}
