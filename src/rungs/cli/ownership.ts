import { type ProcessStat, readStat, readText } from './processes.js';

/** Clock ticks per second of /proc's start times (USER_HZ, 100 on every Linux Lift runs on). */
const TICKS_PER_SECOND = 100;

/** Ticks since boot now, as /proc/PID/stat counts a process's start (undefined when unreadable). */
export function ticksSinceBoot(): number | undefined {
  const seconds = Number(readText('/proc/uptime')?.split(' ')[0]);
  return Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds * TICKS_PER_SECOND) : undefined;
}

/** Lift's own pid and every ancestor of it up to the first process, read once per call. */
function lineage(): Set<number> {
  const chain = new Set<number>();
  let pid = process.pid;
  while (pid > 0 && !chain.has(pid) && chain.size < 1_024) {
    chain.add(pid);
    pid = readStat(pid)?.ppid ?? 0;
  }
  return chain;
}

/**
 * The last check before any signal leaves the wrapper: whatever proved a process to be the
 * call's (its mark, the call's cgroup, its group, its ancestry, a socket the wrapper made),
 * a process is never signalled when it is PID 1, Lift itself or one of Lift's ancestors, or
 * when it started before the call did. A wrong proof then costs a leftover, never another
 * program on the machine.
 */
export class Ownership {
  readonly #protected = lineage();
  /** Ticks since boot when the call began, less one: /proc rounds start times down. */
  readonly #since: number;

  /** `since`: ticks since boot when the call began; unknown means no process passes. */
  constructor(since: number | undefined = ticksSinceBoot()) {
    this.#since = since === undefined ? Number.POSITIVE_INFINITY : since - 1;
  }

  /** An Ownership that knows no start: it still protects PID 1, Lift and its ancestors. */
  static anyAge(): Ownership {
    return new Ownership(Number.NEGATIVE_INFINITY);
  }

  /** Whether the wrapper may signal this process (read afresh: a pid may have been reused). */
  mayEnd(pid: number, startTime?: number): boolean {
    const stat = readStat(pid);
    if (!stat || (startTime !== undefined && stat.startTime !== startTime)) return false;
    return this.allows(stat);
  }

  /** The same judgement on a stat just read. */
  allows(stat: ProcessStat): boolean {
    if (!Number.isInteger(stat.pid) || stat.pid <= 1 || this.#protected.has(stat.pid)) return false;
    return stat.startTime >= this.#since;
  }
}
