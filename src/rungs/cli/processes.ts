import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * What Linux tells us about processes, read from /proc. Every read tolerates the process
 * ending between two reads: a vanished process simply reads as absent.
 */

export interface ProcessStat {
  pid: number;
  /** R running, S sleeping, D disk wait, T stopped, Z zombie, ... */
  state: string;
  ppid: number;
  pgid: number;
  sid: number;
  /** Clock ticks since boot; with the pid it names one process even after pid reuse. */
  startTime: number;
}

export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

export function readLink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

export function readStat(pid: number): ProcessStat | undefined {
  const text = readText(`/proc/${pid}/stat`);
  if (!text) return undefined;
  // The command name is in parentheses and may itself contain spaces or parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    state: fields[0] ?? '?',
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    startTime: Number(fields[19]),
  };
}

export function isLive(stat: ProcessStat | undefined): stat is ProcessStat {
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

/** Direct children of a process, across all its threads. */
export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const task of tasks) {
    const text = readText(`/proc/${pid}/task/${task}/children`);
    if (!text) continue;
    for (const word of text.split(' ')) if (word) children.push(Number(word));
  }
  return children;
}

/** The process and every descendant still attached to the tree, root first. */
export function processTree(rootPid: number): number[] {
  const seen: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0 && seen.length < 4096) {
    const pid = queue.shift()!;
    if (seen.includes(pid)) continue;
    seen.push(pid);
    queue.push(...childrenOf(pid));
  }
  return seen;
}

/** Every pid on the machine. */
export function allPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** Live processes whose process group is `pgid`. */
export function groupMembers(pgid: number): ProcessStat[] {
  return allPids()
    .map(readStat)
    .filter((stat): stat is ProcessStat => isLive(stat) && stat.pgid === pgid);
}

/** The file a process has open as descriptor `fd`, as /proc names it (`socket:[123]`, `/dev/null`). */
export function fdTarget(pid: number, fd: number): string | undefined {
  return readLink(`/proc/${pid}/fd/${fd}`);
}

/** An open file no one else can hold by naming it: a pipe or socket, by its inode. */
const PRIVATE_FILE = /^(socket|pipe):\[\d+\]$/;

/**
 * Live processes holding any of the named pipes or sockets (the wrapper's own), wherever they
 * went. Anything else named (a path such as /dev/null, a terminal) is ignored: holding it
 * proves nothing.
 */
export function holdersOf(named: ReadonlySet<string>): number[] {
  const targets = new Set([...named].filter((target) => PRIVATE_FILE.test(target)));
  if (targets.size === 0) return [];
  const holders: number[] = [];
  for (const pid of allPids()) {
    if (pid === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    if (fds.some((fd) => targets.has(readLink(`/proc/${pid}/fd/${fd}`) ?? '')) && isLive(readStat(pid))) {
      holders.push(pid);
    }
  }
  return holders;
}

/**
 * The far end of one of the wrapper's own socket pairs, named as the program sees it
 * (`socket:[123]`), asked of the kernel through `ss`. Used only when the program ended
 * before the wrapper could read its descriptors, to still find who holds its streams.
 */
export function peerSocket(ownFd: number): string | undefined {
  const own = /socket:\[(\d+)\]/.exec(readLink(`/proc/self/fd/${ownFd}`) ?? '')?.[1];
  if (!own) return undefined;
  let listing: string;
  try {
    listing = execFileSync('ss', ['-xanH'], {
      encoding: 'utf8',
      timeout: 2_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
  for (const line of listing.split('\n')) {
    // Netid State Recv-Q Send-Q Local Port Peer Port
    const fields = line.trim().split(/\s+/);
    if (fields[5] === own && fields[7]) return `socket:[${fields[7]}]`;
    if (fields[7] === own && fields[5]) return `socket:[${fields[5]}]`;
  }
  return undefined;
}
