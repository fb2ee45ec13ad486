import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Whether a process with this pid still exists (EPERM means it does, owned by someone else). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When a process started, in clock ticks since boot (field 22 of /proc/PID/stat): with the
 * pid it names one process for good, where a pid alone may be given to another later.
 * Undefined where there is no /proc.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; fields after it do not.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The process that holds a lease (an approved call it is running), and when it last said so. */
export interface LeaseOwner {
  pid: number;
  host: string;
  /** processStart of the pid when it took the lease. */
  started: string | undefined;
  heartbeatAt: string;
}

/** A lease lapses when its owner on another host has not renewed it for this long. */
export const LEASE_MS = 30_000;
export const HEARTBEAT_MS = 5_000;

let self: Omit<LeaseOwner, 'heartbeatAt'> | undefined;

export function thisProcess(): LeaseOwner {
  self ??= { pid: process.pid, host: hostname(), started: processStart(process.pid) };
  return { ...self, heartbeatAt: new Date().toISOString() };
}

/**
 * Whether the owner of a lease is gone. On this host that is certain: its pid is dead, or
 * now names a process that started later. On another host only the lapsed heartbeat says
 * so. A live owner keeps its lease however long it runs: two runs would be worse.
 */
export function ownerIsGone(owner: LeaseOwner, now = Date.now()): boolean {
  if (owner.host === thisProcess().host) {
    if (!processIsAlive(owner.pid)) return true;
    const started = processStart(owner.pid);
    return owner.started !== undefined && started !== undefined && started !== owner.started;
  }
  return now - Date.parse(owner.heartbeatAt) > LEASE_MS;
}
