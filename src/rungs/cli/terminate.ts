import type { CallCgroup } from './call-cgroup.js';
import { Ownership } from './ownership.js';
import { groupMembers, holdersOf, isLive, type ProcessStat, readStat } from './processes.js';

/** How long a program gets between SIGTERM and SIGKILL. */
export const TERM_GRACE_MS = 100;
/** How long the wrapper waits for the kernel to reap what SIGKILL hit before it reports. */
const REAP_WAIT_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface TerminateTargets {
  pgid: number;
  /** Descendants seen during the run (some may have left the group with setsid). */
  seen: Iterable<ProcessStat>;
  /**
   * The program's ends of the wrapper's own socket pairs (`socket:[123]`), found from the
   * wrapper's ends: whoever still holds one is ours. Never a path: /dev/null is everyone's.
   */
  pipes: ReadonlySet<string>;
  /** Finds the live processes carrying the call's mark (CallMark), wherever they went. */
  marked?: () => number[];
  /** The call's cgroup, where the machine gave it one: everything inside is the call's. */
  cgroup?: CallCgroup | undefined;
  /** The final say on every signal (never PID 1, Lift, its ancestors, or older processes). */
  owner?: Ownership;
}

export interface Terminated {
  /** Processes of the call found alive when termination began. */
  found: number;
  /** Pids still alive at the end (empty when everything is gone). */
  left: number[];
}

/**
 * Ends whatever the call proved to be its own: SIGTERM to the group, the cgroup and every
 * known descendant, then SIGKILL to whatever is left after the grace, including processes that
 * escaped the group but still hold its sockets. Every signal passes the Ownership check first;
 * the group is signalled as a whole only while every live member of it passes too.
 */
export async function terminate(targets: TerminateTargets, graceMs = TERM_GRACE_MS): Promise<Terminated> {
  const ending = new Ending(targets);
  const found = ending.alive().length;
  ending.signalAll('SIGTERM');
  const termEnds = Date.now() + graceMs;
  let left = ending.alive();
  while (left.length > 0 && Date.now() < termEnds) {
    await sleep(20);
    left = ending.alive();
  }
  const reapEnds = Date.now() + REAP_WAIT_MS;
  for (let round = 0; round < 2; round++) {
    while (left.length > 0) {
      ending.signalAll('SIGKILL');
      if (Date.now() >= reapEnds) break;
      await sleep(10);
      left = ending.alive();
    }
    // Anything that took over a socket meanwhile (a holder's own child) gets the same end.
    if (!ending.learnStrays()) break;
    left = ending.alive();
  }
  while (targets.cgroup?.populated() && Date.now() < reapEnds) await sleep(10);
  return { found, left };
}

class Ending {
  readonly #targets: TerminateTargets;
  readonly #owner: Ownership;
  readonly #known: ProcessStat[];

  constructor(targets: TerminateTargets) {
    this.#targets = targets;
    this.#owner = targets.owner ?? Ownership.anyAge();
    const holders = holdersOf(targets.pipes).map(readStat).filter(isLive);
    this.#known = [...targets.seen, ...holders].filter((stat) => this.#mine(stat));
  }

  #mine(stat: ProcessStat | undefined): stat is ProcessStat {
    return isLive(stat) && this.#owner.mayEnd(stat.pid, stat.startTime);
  }

  /** The group's live members when every one of them is the call's, else none (nothing of it is signalled as a group). */
  #group(): ProcessStat[] {
    const members = groupMembers(this.#targets.pgid);
    return members.every((stat) => this.#owner.mayEnd(stat.pid, stat.startTime)) ? members : [];
  }

  #cgroupMembers(): ProcessStat[] {
    return (this.#targets.cgroup?.members() ?? []).map(readStat).filter((stat) => this.#mine(stat));
  }

  /** Live pids of the call: its group, its cgroup and the processes known to be its own. */
  alive(): number[] {
    const pids = new Set<number>([...this.#group(), ...this.#cgroupMembers()].map((stat) => stat.pid));
    for (const stat of this.#known) {
      const now = readStat(stat.pid);
      if (isLive(now) && now.startTime === stat.startTime && this.#owner.allows(now)) pids.add(stat.pid);
    }
    return [...pids];
  }

  signalAll(name: NodeJS.Signals): void {
    const { cgroup, pgid } = this.#targets;
    if (name === 'SIGKILL') cgroup?.killAll();
    if (this.#group().length > 0) send(-pgid, name);
    for (const stat of [...this.#cgroupMembers(), ...this.#known]) {
      if (this.#owner.mayEnd(stat.pid, stat.startTime)) send(stat.pid, name);
    }
  }

  /** Adds socket holders and marked processes not known yet; whether there were any. */
  learnStrays(): boolean {
    const pids = new Set([...holdersOf(this.#targets.pipes), ...(this.#targets.marked?.() ?? [])]);
    const late = [...pids]
      .map(readStat)
      .filter((stat): stat is ProcessStat => this.#mine(stat))
      .filter((stat) => !this.#known.some((other) => other.pid === stat.pid));
    this.#known.push(...late);
    return late.length > 0;
  }
}

function send(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}
