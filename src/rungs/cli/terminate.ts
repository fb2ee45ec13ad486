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
  /** Finds the live processes carrying the call's mark (CallMark), wherever they went. */
  marked?: () => number[];
}

/** Live pids of the call's group plus the given pids (cheap: stat reads only, no descriptor scan). */
function stillAlive(pgid: number, known: readonly ProcessStat[]): number[] {
  const pids = new Set<number>(groupMembers(pgid).map((stat) => stat.pid));
  for (const stat of known) if (sameProcess(stat)) pids.add(stat.pid);
  pids.delete(process.pid);
  return [...pids];
}

export interface Terminated {
  /** Processes of the call found alive when termination began. */
  found: number;
  /** Pids still alive at the end (empty when everything is gone). */
  left: number[];
}

/** Processes outside the group and the tree that are still the call's: pipe holders and marked ones. */
function strays(targets: TerminateTargets): ProcessStat[] {
  const pids = new Set([...holdersOf(targets.pipes), ...(targets.marked?.() ?? [])]);
  pids.delete(process.pid);
  return [...pids].map(readStat).filter((stat): stat is ProcessStat => isLive(stat));
}

/**
 * Ends the whole call: SIGTERM to the group and every known descendant, then SIGKILL to
 * whatever is left after the grace, including processes that escaped the group but still
 * hold its pipes. The costly scan for pipe holders runs once at the start and once at the
 * end; the marked processes are looked for again at the end, for any a dying one forked.
 */
export async function terminate(targets: TerminateTargets, graceMs = TERM_GRACE_MS): Promise<Terminated> {
  const holders = holdersOf(targets.pipes)
    .map(readStat)
    .filter((stat): stat is ProcessStat => isLive(stat));
  const known = [...targets.seen, ...holders].filter(sameProcess);
  const found = stillAlive(targets.pgid, known).length;
  signal(-targets.pgid, 'SIGTERM');
  for (const stat of known) signal(stat.pid, 'SIGTERM');
  const termEnds = Date.now() + graceMs;
  let left = stillAlive(targets.pgid, known);
  while (left.length > 0 && Date.now() < termEnds) {
    await sleep(20);
    left = stillAlive(targets.pgid, known);
  }
  const reapEnds = Date.now() + REAP_WAIT_MS;
  for (let round = 0; round < 2; round++) {
    while (left.length > 0) {
      signal(-targets.pgid, 'SIGKILL');
      for (const pid of left) signal(pid, 'SIGKILL');
      if (Date.now() >= reapEnds) break;
      await sleep(10);
      left = stillAlive(targets.pgid, known);
    }
    // Anything that took over a pipe meanwhile (a holder's own child) gets the same end.
    const late = strays(targets).filter((stat) => !known.some((other) => other.pid === stat.pid));
    if (late.length === 0) break;
    known.push(...late);
    left = stillAlive(targets.pgid, known);
  }
  return { found, left };
}
