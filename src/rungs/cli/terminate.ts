import { groupMembers, holdersOf, isLive, type ProcessStat, readStat } from './processes.js';

/** How long a program gets between SIGTERM and SIGKILL. */
export const TERM_GRACE_MS = 100;
/** How long the wrapper waits for the kernel to reap what SIGKILL hit before it reports. */
const REAP_WAIT_MS = 500;

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

function sameProcess(known: ProcessStat): boolean {
  const now = readStat(known.pid);
  return isLive(now) && now.startTime === known.startTime;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface TerminateTargets {
  pgid: number;
  /** Descendants seen during the run (some may have left the group with setsid). */
  seen: Iterable<ProcessStat>;
  /** /proc names of the wrapper's pipes (`socket:[123]`): whoever still holds one is ours. */
  pipes: ReadonlySet<string>;
}

/** The processes that still belong to the call: its group, escaped descendants, holders of its pipes. */
function survivors(targets: TerminateTargets): number[] {
  const pids = new Set<number>(groupMembers(targets.pgid).map((stat) => stat.pid));
  for (const known of targets.seen) if (sameProcess(known)) pids.add(known.pid);
  for (const pid of holdersOf(targets.pipes)) pids.add(pid);
  pids.delete(process.pid);
  return [...pids];
}

export interface Terminated {
  /** Processes of the call found alive when termination began. */
  found: number;
  /** Pids still alive at the end (empty when everything is gone). */
  left: number[];
}

/**
 * Ends the whole call: SIGTERM to the group and every known descendant, then SIGKILL to
 * whatever is left, including processes that escaped the group but still hold its pipes.
 */
export async function terminate(targets: TerminateTargets, graceMs = TERM_GRACE_MS): Promise<Terminated> {
  const found = survivors(targets).length;
  signal(-targets.pgid, 'SIGTERM');
  for (const known of targets.seen) if (sameProcess(known)) signal(known.pid, 'SIGTERM');
  const termEnds = Date.now() + graceMs;
  while (Date.now() < termEnds) {
    if (survivors(targets).length === 0) return { found, left: [] };
    await sleep(20);
  }
  const reapEnds = Date.now() + REAP_WAIT_MS;
  let left = survivors(targets);
  while (left.length > 0) {
    signal(-targets.pgid, 'SIGKILL');
    for (const pid of left) signal(pid, 'SIGKILL');
    if (Date.now() >= reapEnds) break;
    await sleep(10);
    left = survivors(targets);
  }
  return { found, left };
}
