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

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function readLink(path: string): string | undefined {
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

/** Live processes holding any of the named open files (the wrapper's pipes), wherever they went. */
export function holdersOf(targets: ReadonlySet<string>): number[] {
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

const READ_CALLS: Record<string, number[]> = {
  x64: [0, 17, 19, 295, 327], // read, pread64, readv, preadv, preadv2
  arm64: [63, 67, 65, 69, 286],
};
const WAIT_CALLS: Record<string, number[]> = {
  x64: [7, 23, 232, 270, 271, 281, 441], // poll, select, epoll_wait, pselect6, ppoll, epoll_pwait, epoll_pwait2
  arm64: [22, 72, 73, 441],
};

/**
 * How a process relates to the wrapper's standard input right now:
 *   reading  - asleep in a read of that very input: it waits for a person
 *   waiting  - asleep in poll/select/epoll with that input open: it may wait for a person
 *   busy     - anything else
 */
export type InputWait = 'reading' | 'waiting' | 'busy';

export function inputWait(pid: number, stdinTarget: string): InputWait {
  const stat = readStat(pid);
  if (stat?.state !== 'S') return 'busy';
  const syscall = readText(`/proc/${pid}/syscall`);
  if (!syscall) return waitFromWchan(pid, stdinTarget);
  const [number, firstArgument] = syscall.trim().split(' ');
  const call = Number(number);
  if ((READ_CALLS[process.arch] ?? []).includes(call)) {
    const fd = Number.parseInt(firstArgument ?? '', 16);
    return fdTarget(pid, fd) === stdinTarget ? 'reading' : 'busy';
  }
  if ((WAIT_CALLS[process.arch] ?? []).includes(call)) return holds(pid, stdinTarget) ? 'waiting' : 'busy';
  return 'busy';
}

function holds(pid: number, target: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => readLink(`/proc/${pid}/fd/${fd}`) === target);
  } catch {
    return false;
  }
}

/** Kernel functions a process sleeps in while it reads a pipe or socket, or polls. */
const WAIT_CHANNELS =
  /^(unix_stream_read_generic|anon_pipe_read|pipe_read|wait_woken|poll_schedule_timeout|do_select|do_sys_poll|ep_poll)/;

/**
 * Where /proc/PID/syscall is not readable (some containers restrict it), the wait channel
 * still says the process sleeps in a read or a poll. Which descriptor is unknown, so this
 * is only ever `waiting`: the wrapper then also needs a question on a partial line.
 */
export function waitFromWchan(pid: number, stdinTarget: string): InputWait {
  const channel = readText(`/proc/${pid}/wchan`) ?? '';
  return WAIT_CHANNELS.test(channel) && holds(pid, stdinTarget) ? 'waiting' : 'busy';
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
