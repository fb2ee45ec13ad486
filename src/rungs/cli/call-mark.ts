import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readText } from './processes.js';

/** The variable that carries a call's mark into every process the call starts. */
export const CALL_MARK_VARIABLE = 'LIFT_CALL_MARK';

/** The kernel's pid limit, read once; pids run from 1 up to it, then start again low. */
let pidMax: number | undefined;
function pidLimit(): number {
  pidMax ??= Number(readText('/proc/sys/kernel/pid_max')?.trim()) || 4_194_304;
  return pidMax;
}

/** The last pid the kernel handed out in this pid namespace, when it says. */
function lastPid(): number | undefined {
  const value = Number(readText('/proc/sys/kernel/ns_last_pid')?.trim());
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

function environHas(pid: number, needle: Buffer): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`).includes(needle);
  } catch {
    return false;
  }
}

/**
 * A mark in the environment of one call. Every descendant inherits it through fork and exec,
 * whatever it does to its session, process group, parent or standard files, so at the end of
 * the call /proc/PID/environ names every process the call left behind. It is the fallback of
 * the call's cgroup (call-cgroup.ts): a program that empties its own environment is found there.
 *
 * Only processes born during the call are read: pids are handed out in order, so those are the
 * pids after the last one given out before the call, up to the last one given out now, wrapping
 * at pid_max. The watch follows the kernel's counter; when the wrap cannot be followed (the
 * counter is unreadable, or a whole turn went by), every process is read.
 */
export class CallMark {
  readonly value = `${process.pid}-${randomBytes(8).toString('hex')}`;
  readonly #needle = Buffer.from(`${CALL_MARK_VARIABLE}=${this.value}\0`);
  readonly #before = lastPid();
  #last = this.#before;
  #wrapped = false;
  #handedOut = 0;

  /** The variable to add to the program's environment (after everything else, so nothing overrides it). */
  get environment(): Record<string, string> {
    return { [CALL_MARK_VARIABLE]: this.value };
  }

  /** Follows the kernel's pid counter (the wrapper calls this on every look). */
  observe(): void {
    const now = lastPid();
    if (now === undefined || this.#last === undefined) return;
    if (now < this.#last) this.#wrapped = true;
    this.#handedOut += (now - this.#last + pidLimit()) % pidLimit();
    this.#last = now;
  }

  /** Live processes (not zombies) that carry the mark, other than the wrapper itself. */
  holders(): number[] {
    this.observe();
    const born = this.#bornDuringCall();
    const holders: number[] = [];
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid === process.pid || !born(pid)) continue;
      if (environHas(pid, this.#needle)) holders.push(pid);
    }
    return holders;
  }

  #bornDuringCall(): (pid: number) => boolean {
    const before = this.#before;
    const last = this.#last;
    if (before === undefined || last === undefined) return () => true;
    // More pids than one turn (low pids are reserved), or a wrap that came back past the start.
    if (this.#handedOut >= pidLimit() - 300 || (this.#wrapped && last >= before)) return () => true;
    return this.#wrapped ? (pid) => pid > before || pid <= last : (pid) => pid > before && pid <= last;
  }
}
