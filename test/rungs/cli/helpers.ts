import { readFileSync } from 'node:fs';
import { LiftError } from '../../../src/contract/errors.js';
import { allPids, groupMembers, readStat } from '../../../src/rungs/cli/processes.js';

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

let daemonCount = 0;
/**
 * A sleep length no other process on the machine has (`1000.<pid><n>`): a daemon started with it
 * can be found in /proc by its command line, whatever pid, session or parent it ends up with.
 */
export function uniqueSleep(): string {
  daemonCount += 1;
  return `1000.${process.pid}${String(daemonCount).padStart(3, '0')}`;
}

/** Live processes whose command line holds `token`, read from /proc. */
export function processesWith(token: string): number[] {
  return allPids().filter((pid) => {
    if (pid === process.pid || gone(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(token);
    } catch {
      return false;
    }
  });
}

/** Kills, by pid, what a failed test left running under `token`, so it leaks nothing either. */
export function killLeftovers(token: string): void {
  for (const pid of processesWith(token)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}
