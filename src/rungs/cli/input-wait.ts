import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { fdTarget, readLink, readStat, readText } from './processes.js';

/**
 * Whether a process waits for what a person would type on the wrapper's standard input,
 * read from /proc: the system call each thread sleeps in, and what that call waits for.
 *
 *   reading  - the main thread sleeps in a read of that very input: it waits for a person
 *   polling  - every thread sleeps, and that input is among what the process waits for
 *              (in its epoll set, its poll or select set, or a worker thread's read): an
 *              event loop (Node's readline, Python's asyncio) waiting for a person
 *   waiting  - asleep in poll/select/epoll with that input open, what it waits for unknown
 *   busy     - anything else
 */
export type InputWait = 'reading' | 'polling' | 'waiting' | 'busy';

type Call = 'read' | 'poll' | 'select' | 'epoll';

const CALLS: Record<string, Record<number, Call>> = {
  // read pread64 readv preadv preadv2 | poll ppoll | select pselect6 | epoll_wait epoll_pwait epoll_pwait2
  x64: {
    ...{ 0: 'read', 17: 'read', 19: 'read', 295: 'read', 327: 'read' },
    ...{ 7: 'poll', 271: 'poll', 23: 'select', 270: 'select', 232: 'epoll', 281: 'epoll', 441: 'epoll' },
  },
  arm64: {
    ...{ 63: 'read', 67: 'read', 65: 'read', 69: 'read', 286: 'read' },
    ...{ 73: 'poll', 72: 'select', 22: 'epoll', 441: 'epoll' },
  },
};
const CALL_NAMES = CALLS[process.arch] ?? {};
/** Enough threads for any runtime's pool; a process with more is not read further. */
const MAX_THREADS = 64;
const POLLIN = 0x1;
const EPOLLIN = 0x1;

interface Syscall {
  call: Call | 'other';
  args: bigint[];
}

/** What one thread sleeps in, from /proc/PID/task/TID/syscall (`number arg1 ... arg6 sp pc`). */
function syscallOf(path: string): Syscall | undefined {
  const words = readText(path)?.trim().split(' ');
  if (!words || words.length < 3) return undefined;
  const call = CALL_NAMES[Number(words[0])] ?? 'other';
  const args = words.slice(1, 7).map((word) => {
    try {
      return BigInt(word);
    } catch {
      return 0n;
    }
  });
  return { call, args };
}

/**
 * The main thread's verdict first (a blocking read, or a wait with the input open), as cheap
 * as a few small reads. With `deep`, also what the wait is on and what the other threads do:
 * the caller asks for that only when a partial line has stood unchanged for a while.
 */
export function inputWait(pid: number, stdinTarget: string, deep = false): InputWait {
  const stat = readStat(pid);
  if (stat?.state !== 'S') return 'busy';
  const main = syscallOf(`/proc/${pid}/syscall`);
  if (!main) return waitFromWchan(pid, stdinTarget);
  if (main.call === 'read') {
    if (fdTarget(pid, Number(main.args[0])) === stdinTarget) return 'reading';
  }
  const inWait = main.call === 'poll' || main.call === 'select' || main.call === 'epoll';
  if (!deep) return inWait && holds(pid, stdinTarget) ? 'waiting' : 'busy';
  const watched = inWait ? watchesInput(pid, main, stdinTarget) : false;
  if (watched === true || (watched === false && threadReads(pid, stdinTarget))) {
    return allAsleep(pid) ? 'polling' : 'waiting';
  }
  return inWait && holds(pid, stdinTarget) ? 'waiting' : 'busy';
}

/** Whether a poll, select or epoll wait includes the input (undefined: not readable here). */
function watchesInput(pid: number, wait: Syscall, stdinTarget: string): boolean | undefined {
  if (wait.call === 'epoll') return epollWatches(pid, Number(wait.args[0]), stdinTarget);
  if (wait.call === 'poll') return pollWatches(pid, wait.args[0] ?? 0n, Number(wait.args[1]), stdinTarget);
  if (wait.call === 'select')
    return selectWatches(pid, Number(wait.args[0]), wait.args[1] ?? 0n, stdinTarget);
  return false;
}

/** The inode in a /proc name such as `socket:[98517]` or `pipe:[4401]`. */
function inodeOf(target: string): number | undefined {
  const match = /:\[(\d+)\]$/.exec(target);
  return match ? Number(match[1]) : undefined;
}

/** An epoll set lists each watched file in /proc/PID/fdinfo/EPFD: `tfd: 0 events: 19 ... ino:180d5`. */
export function epollWatches(pid: number, epollFd: number, stdinTarget: string): boolean | undefined {
  const info = readText(`/proc/${pid}/fdinfo/${epollFd}`);
  const inode = inodeOf(stdinTarget);
  if (info === undefined || inode === undefined) return undefined;
  for (const match of info.matchAll(/^tfd:\s*(\d+)\s+events:\s*([0-9a-f]+)\b.*?\bino:([0-9a-f]+)/gm)) {
    const events = Number.parseInt(match[2] ?? '0', 16);
    if ((events & EPOLLIN) === 0) continue;
    if (Number.parseInt(match[3] ?? '', 16) === inode) return true;
    if (fdTarget(pid, Number(match[1])) === stdinTarget) return true;
  }
  return false;
}

/** Bytes of the process's memory at an address (the poll or select set it passed), or undefined. */
function readMemory(pid: number, address: bigint, length: number): Buffer | undefined {
  if (address === 0n || length <= 0) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/mem`, 'r');
    const buffer = Buffer.alloc(length);
    return readSync(fd, buffer, 0, length, address) === length ? buffer : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** poll(fds, nfds, timeout): an array of `struct pollfd { int fd; short events; short revents; }`. */
function pollWatches(pid: number, fds: bigint, count: number, stdinTarget: string): boolean | undefined {
  if (!(count > 0 && count <= 1_024)) return count === 0 ? false : undefined;
  const table = readMemory(pid, fds, count * 8);
  if (!table) return undefined;
  for (let index = 0; index < count; index++) {
    const fd = table.readInt32LE(index * 8);
    const events = table.readInt16LE(index * 8 + 4);
    if (fd >= 0 && (events & POLLIN) !== 0 && fdTarget(pid, fd) === stdinTarget) return true;
  }
  return false;
}

/** select(nfds, readfds, ...): a bit per descriptor below nfds. */
function selectWatches(
  pid: number,
  count: number,
  readFds: bigint,
  stdinTarget: string,
): boolean | undefined {
  if (readFds === 0n) return false;
  if (!(count > 0 && count <= 1_024)) return undefined;
  const bits = readMemory(pid, readFds, Math.ceil(count / 8));
  if (!bits) return undefined;
  for (let fd = 0; fd < count; fd++) {
    if (((bits[fd >> 3] ?? 0) & (1 << (fd & 7))) !== 0 && fdTarget(pid, fd) === stdinTarget) return true;
  }
  return false;
}

function threadsOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`).slice(0, MAX_THREADS);
  } catch {
    return [];
  }
}

/** A worker thread asleep in a read of the input (asyncio's run_in_executor, a reader thread). */
function threadReads(pid: number, stdinTarget: string): boolean {
  return threadsOf(pid).some((task) => {
    const call = task === String(pid) ? undefined : syscallOf(`/proc/${pid}/task/${task}/syscall`);
    return call?.call === 'read' && fdTarget(pid, Number(call.args[0])) === stdinTarget;
  });
}

/** No thread is running or in a disk wait: the process as a whole waits. */
function allAsleep(pid: number): boolean {
  return threadsOf(pid).every((task) => {
    // A thread that ended meanwhile reads as absent, which is asleep enough.
    const text = readText(`/proc/${pid}/task/${task}/stat`) ?? ') S';
    return text.charAt(text.lastIndexOf(')') + 2) === 'S';
  });
}

export function holds(pid: number, target: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => readLink(`/proc/${pid}/fd/${fd}`) === target);
  } catch {
    return false;
  }
}

/** Kernel functions a process sleeps in while it reads a pipe or socket, or polls. */
const WAIT_CHANNELS =
  /^(unix_stream_read_generic|anon_pipe_read|pipe_read|wait_woken|poll_schedule_timeout|do_select|do_sys_poll|ep_poll|do_epoll_wait)/;

/**
 * Where /proc/PID/syscall is not readable (some containers restrict it), the wait channel
 * still says the process sleeps in a read or a poll. Which descriptor is unknown, so this
 * is only ever `waiting`: the wrapper then also needs a question on a partial line.
 */
export function waitFromWchan(pid: number, stdinTarget: string): InputWait {
  const channel = readText(`/proc/${pid}/wchan`) ?? '';
  return WAIT_CHANNELS.test(channel) && holds(pid, stdinTarget) ? 'waiting' : 'busy';
}
