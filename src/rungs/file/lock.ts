import { closeSync, fsyncSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { LiftError } from '../../contract/errors.js';
import { PRIVATE_FILE_MODE } from '../../contract/paths.js';
import { processIsAlive } from '../../store/processes.js';
import { sleep } from './wait.js';

/**
 * The advisory lock convention of the file rung: a lock file next to the data, created with
 * O_CREAT|O_EXCL and holding its owner's pid and host as JSON.
 *
 * Why a lock file and not flock(2): Node has no flock, and holding one through util-linux's
 * `flock` means keeping a child process alive for the whole write. A lock file is what legacy
 * programs and people's scripts already use (`name.lock`, LibreOffice's `.~lock.*#`), it can be
 * seen with `ls` and `cat`, it works on network shares where flock is unreliable, and a dead
 * owner can be told from a live one by its pid. The price: it is advisory, so only programs that
 * follow the convention are kept out.
 */
export interface LockOwner {
  pid: number;
  host: string;
  at: string;
  purpose?: string;
}

export interface FileLock {
  readonly path: string;
  readonly owner: LockOwner;
  release(): void;
}

export interface AcquireOptions {
  /** Epoch milliseconds after which waiting ends with TIMEOUT, outcome not_started. */
  deadline: number;
  signal?: AbortSignal;
  purpose?: string;
  pollMs?: number;
  /** The read that settles the call if it times out here (nothing was written, so rarely needed). */
  settle?: string;
}

export function readLockOwner(path: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    return { pid: parsed.pid, host: parsed.host, at: String(parsed.at ?? '') };
  } catch {
    return undefined;
  }
}

/** A lock is stale when its owner ran on this host and is gone, or it never got its content. */
function isStale(path: string, raw: string | undefined): boolean {
  if (raw === undefined) return false;
  const owner = readLockOwner(path);
  if (!owner) {
    // An owner killed between create and write leaves an empty file; give it a moment.
    return Date.now() - statSync(path).mtimeMs > 5_000;
  }
  return owner.host === hostname() && !processIsAlive(owner.pid);
}

function readRaw(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function tryCreate(path: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Removes a stale lock, unless it changed since it was judged stale (another waiter took it). */
function breakStale(path: string, judged: string): void {
  if (readRaw(path) !== judged) return;
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Takes the lock, waiting for a live holder until the deadline. A stale lock (its owner died
 * on this host) is broken. Times out with TIMEOUT, outcome `not_started`: nothing was written.
 */
export async function acquireLock(path: string, options: AcquireOptions): Promise<FileLock> {
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    at: new Date().toISOString(),
    ...(options.purpose ? { purpose: options.purpose } : {}),
  };
  const token = JSON.stringify(owner);
  for (;;) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (tryCreate(path, owner)) {
      return {
        path,
        owner,
        release: () => {
          if (readRaw(path) === token) unlinkSync(path);
        },
      };
    }
    const raw = readRaw(path);
    if (raw !== undefined && isStale(path, raw)) {
      breakStale(path, raw);
      continue;
    }
    const wait = Math.min(options.pollMs ?? 50, options.deadline - Date.now());
    if (wait <= 0) {
      const holder = readLockOwner(path);
      throw new LiftError('TIMEOUT', `The lock ${path} was still held when the deadline passed.`, {
        outcome: 'not_started',
        hint: `Nothing was written. ${holder ? `Process ${holder.pid} on ${holder.host} has held it since ${holder.at}.` : 'The holder is unknown.'} Ask whoever holds it to finish (close the file), then call again.`,
        details: { lock: path, ...(holder ? { holder } : {}) },
        ...(options.settle ? { settle: options.settle } : {}),
      });
    }
    await sleep(wait, options.signal);
  }
}

/** Runs `work` while holding the lock and releases it afterwards, whatever happens. */
export async function withLock<T>(path: string, options: AcquireOptions, work: () => Promise<T>): Promise<T> {
  const lock = await acquireLock(path, options);
  try {
    return await work();
  } finally {
    lock.release();
  }
}
