import { randomBytes } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { readText } from './processes.js';

/** The shell line that moves itself into the call's cgroup, then becomes the program: `$0` is cgroup.procs. */
const ENTER_AND_EXEC = '{ echo 0 >"$0"; } 2>/dev/null; exec "$@"';
const SHELL = '/bin/sh';

/** /proc/self/mountinfo escapes spaces and the like as octal (`\040`). */
function unescapeMount(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

let ownDirectory: string | null | undefined;
let swept = false;

/**
 * This process's own cgroup v2 folder: the cgroup2 mount (alone, or the `unified` one of a
 * hybrid machine) joined with the `0::` line of /proc/self/cgroup. Found once; undefined when
 * the machine has no cgroup v2 or this process's cgroup is outside the mount.
 */
export function ownCgroupDirectory(): string | undefined {
  if (ownDirectory !== undefined) return ownDirectory ?? undefined;
  ownDirectory = null;
  const path = /^0::(\/.*)$/m.exec(readText('/proc/self/cgroup') ?? '')?.[1];
  if (path === undefined || path.includes('(deleted)')) return undefined;
  for (const line of (readText('/proc/self/mountinfo') ?? '').split('\n')) {
    const [before, after] = line.split(' - ');
    if (!after?.startsWith('cgroup2 ')) continue;
    const fields = (before ?? '').split(' ');
    const root = unescapeMount(fields[3] ?? '');
    const mountPoint = unescapeMount(fields[4] ?? '');
    if (!mountPoint) continue;
    const inside =
      root === '/'
        ? path
        : path === root
          ? '/'
          : path.startsWith(`${root}/`)
            ? path.slice(root.length)
            : undefined;
    if (inside === undefined) continue;
    ownDirectory = join(mountPoint, inside);
    break;
  }
  return ownDirectory ?? undefined;
}

/**
 * A cgroup made for one call. The program enters it before it runs (through a one-line shell
 * that writes itself into cgroup.procs and then becomes the program), and everything it starts
 * is born inside: no fork, setsid, emptied environment or new name takes a process out of it.
 * At the end of the call cgroup.procs lists exactly the call's processes and cgroup.kill ends
 * them at once, with no other program touched.
 */
export class CallCgroup {
  readonly path: string;
  #confirmed = false;

  private constructor(path: string) {
    this.path = path;
  }

  /** A fresh cgroup under Lift's own, or undefined where the machine does not allow one. */
  static create(): CallCgroup | undefined {
    const parent = ownCgroupDirectory();
    if (!parent) return undefined;
    if (!swept) {
      swept = true;
      sweepCallCgroups();
    }
    const path = join(parent, `lift-call-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      mkdirSync(path);
    } catch {
      return undefined;
    }
    try {
      accessSync(join(path, 'cgroup.procs'), constants.W_OK);
      accessSync(join(parent, 'cgroup.procs'), constants.W_OK);
    } catch {
      tryRemove(path);
      return undefined;
    }
    return new CallCgroup(path);
  }

  /** How to start `program` so that it runs inside: the shell first, the program in its place. */
  command(program: string, args: readonly string[]): { program: string; args: string[] } {
    return {
      program: SHELL,
      args: ['-c', ENTER_AND_EXEC, join(this.path, 'cgroup.procs'), program, ...args],
    };
  }

  /** Whether the program was seen inside (its /proc cgroup line, or time spent in the cgroup). */
  confirm(pid: number | undefined): boolean {
    if (this.#confirmed) return true;
    const line =
      pid === undefined ? undefined : /^0::(.*)$/m.exec(readText(`/proc/${pid}/cgroup`) ?? '')?.[1];
    // cpu.stat is kept for every cgroup v2, controller or not: any time spent means something ran inside.
    const usage = Number(/^usage_usec (\d+)$/m.exec(readText(join(this.path, 'cpu.stat')) ?? '')?.[1]);
    this.#confirmed =
      line?.endsWith(`/${basename(this.path)}`) === true || usage > 0 || this.members().length > 0;
    return this.#confirmed;
  }

  /** The live processes inside, as the kernel lists them. */
  members(): number[] {
    return (readText(join(this.path, 'cgroup.procs')) ?? '')
      .split('\n')
      .filter((word) => word !== '')
      .map(Number);
  }

  /** SIGKILL to every process inside at once (cgroup.kill); false where the kernel has no such file. */
  killAll(): boolean {
    try {
      writeFileSync(join(this.path, 'cgroup.kill'), '1');
      return true;
    } catch {
      return false;
    }
  }

  /** Whether any process is still inside, dying ones included. */
  populated(): boolean {
    return /^populated 1$/m.test(readText(join(this.path, 'cgroup.events')) ?? '');
  }

  /** Removes the folder once nothing is inside; a cgroup still in use stays until sweepCallCgroups. */
  remove(): void {
    tryRemove(this.path);
  }
}

function tryRemove(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // Still populated, or already gone.
  }
}

/** A cgroup younger than this may be another Lift's (in another pid namespace) that its program has yet to enter. */
const SWEEP_AGE_MS = 60_000;

/** Removes empty cgroups of earlier calls whose Lift process is gone (a crash between create and remove). */
export function sweepCallCgroups(): void {
  const parent = ownCgroupDirectory();
  if (!parent) return;
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^lift-call-(\d+)-[0-9a-f]+$/.exec(name)?.[1]);
    if (!pid || pid === process.pid || existsSync(`/proc/${pid}`)) continue;
    const path = join(parent, name);
    try {
      if (Date.now() - statSync(path).mtimeMs < SWEEP_AGE_MS) continue;
    } catch {
      continue;
    }
    tryRemove(path);
  }
}
