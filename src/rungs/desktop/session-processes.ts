import { readFileSync } from 'node:fs';
import { allPids, isLive, type ProcessStat, readStat } from '../cli/processes.js';

/**
 * Live processes started inside one desktop session, found by the marker every one of them
 * inherits (`LIFT_DESKTOP_SESSION=<id>` in its environment): programs, the services D-Bus
 * activated for them, and whatever they left running after their own process group ended.
 */
export function processesOfSession(id: string): ProcessStat[] {
  const marker = Buffer.from(`\0LIFT_DESKTOP_SESSION=${id}\0`);
  const first = Buffer.from(`LIFT_DESKTOP_SESSION=${id}\0`);
  const found: ProcessStat[] = [];
  for (const pid of allPids()) {
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue; // ended while we looked, or not ours to read
    }
    if (environ.includes(marker) || environ.subarray(0, first.length).equals(first)) {
      const stat = readStat(pid);
      if (isLive(stat)) found.push(stat);
    }
  }
  return found;
}
