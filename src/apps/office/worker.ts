import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { DEBIAN_OFFICE, OfficeProcess, type OfficePrograms } from './office-process.js';

/** The jobs the bridge knows; each is answered by one function in bridge.py. */
export type OfficeJob = { op: 'workbook' | 'deck' | 'report' | 'convert' | 'inspect' } & Record<
  string,
  unknown
>;

export interface JobLimits {
  signal: AbortSignal;
  /** Epoch milliseconds after which the job is abandoned and its office process ended. */
  deadline: number;
}

/** Runs office jobs one at a time, warm (one long-lived process) or cold (a new process per job). */
export interface OfficeRunner {
  readonly mode: 'warm' | 'cold';
  run(job: OfficeJob, limits: JobLimits): Promise<unknown>;
  close(): Promise<void>;
}

export interface OfficeOptions {
  programs?: OfficePrograms;
  /** How long LibreOffice may take to accept its first connection (default 60 s). */
  startMs?: number;
}

export const OFFICE_TIMEOUT_HINT =
  'LibreOffice did not finish before the deadline; its process was ended and the next call starts a fresh one. The files are written again by a second call, so retrying once is safe; if it hangs again, the document is the cause.';

/** The name under which tools share the office worker through ToolContext.service. */
export const OFFICE_SERVICE = 'office';

/** The runtime's office worker; a warm one unless something registered another runner first. */
export function officeRunner(ctx: ToolContext): Promise<OfficeRunner> {
  return ctx.service<OfficeRunner>(OFFICE_SERVICE, () => new WarmOffice());
}

function newProfileDir(): string {
  return mkdtempSync(join(tmpdir(), 'lift-office-'));
}

/** Runs `work` one at a time in call order. */
class Queue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(work, work);
    this.#tail = next.catch(() => undefined);
    return next;
  }
}

/**
 * Settles with `work`, or rejects when the signal aborts or the deadline passes; `onGiveUp`
 * runs first in that case (it ends the hung office process).
 */
function bounded<T>(work: Promise<T>, limits: JobLimits, what: string, onGiveUp: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const giveUp = (reason: unknown) => {
      cleanup();
      onGiveUp();
      reject(reason);
    };
    const onAbort = () => giveUp(limits.signal.reason);
    const timer = setTimeout(
      () =>
        giveUp(
          new LiftError('TIMEOUT', `LibreOffice did not finish the ${what} job before its deadline.`, {
            hint: OFFICE_TIMEOUT_HINT,
          }),
        ),
      Math.max(0, limits.deadline - Date.now()),
    );
    const cleanup = () => {
      clearTimeout(timer);
      limits.signal.removeEventListener('abort', onAbort);
    };
    if (limits.signal.aborted) return giveUp(limits.signal.reason);
    limits.signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}

/**
 * One warm soffice per worker with its own profile folder, fed one job at a time. A job that
 * outlives its deadline ends the process; the next job starts a fresh one.
 */
export class WarmOffice implements OfficeRunner {
  readonly mode = 'warm';
  readonly profileDir = newProfileDir();
  readonly #programs: OfficePrograms;
  readonly #startMs: number;
  readonly #queue = new Queue();
  #process: Promise<OfficeProcess> | undefined;
  #closed = false;
  /** How many office processes this worker has started (1 plus one per restart). */
  starts = 0;

  constructor(options: OfficeOptions = {}) {
    this.#programs = options.programs ?? DEBIAN_OFFICE;
    this.#startMs = options.startMs ?? 60_000;
  }

  /** Starts the office process now rather than on the first job. */
  warm(): Promise<void> {
    return this.#queue.run(async () => {
      await this.#current();
    });
  }

  /** The process id of the running office launcher, if any (tests use it to make it hang). */
  async officePids(): Promise<number[]> {
    const current = await this.#process?.catch(() => undefined);
    return current?.alive ? current.pids() : [];
  }

  run(job: OfficeJob, limits: JobLimits): Promise<unknown> {
    return this.#queue.run(async () => {
      if (this.#closed) throw new LiftError('INTERNAL_ERROR', 'The office worker was closed.');
      let office = await bounded(this.#current(), limits, job.op, () => this.#discard());
      if (!office.alive) {
        // It ended between jobs (a crash, or someone killed it): start a fresh one.
        this.#process = undefined;
        office = await bounded(this.#current(), limits, job.op, () => this.#discard());
      }
      try {
        return await bounded(office.send(job), limits, job.op, () => this.#discard());
      } finally {
        if (!office.alive) this.#process = undefined;
      }
    });
  }

  #current(): Promise<OfficeProcess> {
    if (!this.#process) {
      this.starts += 1;
      this.#process = OfficeProcess.start(this.profileDir, this.#programs, this.#startMs);
      this.#process.catch(() => {
        this.#process = undefined;
      });
    }
    return this.#process;
  }

  #discard(): void {
    const current = this.#process;
    this.#process = undefined;
    void current?.then(
      (office) => office.kill(),
      () => undefined,
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    const current = this.#process;
    this.#process = undefined;
    const office = await current?.catch(() => undefined);
    office?.kill();
    await office?.gone();
    rmSync(this.profileDir, { recursive: true, force: true });
  }
}

/**
 * A new office process for every job (the cold path). Its processes take turns on one profile
 * folder of its own, so only the first pays for creating the profile.
 */
export class ColdOffice implements OfficeRunner {
  readonly mode = 'cold';
  readonly profileDir = newProfileDir();
  readonly #programs: OfficePrograms;
  readonly #startMs: number;
  readonly #queue = new Queue();

  constructor(options: OfficeOptions = {}) {
    this.#programs = options.programs ?? DEBIAN_OFFICE;
    this.#startMs = options.startMs ?? 60_000;
  }

  run(job: OfficeJob, limits: JobLimits): Promise<unknown> {
    return this.#queue.run(async () => {
      const started = OfficeProcess.start(this.profileDir, this.#programs, this.#startMs);
      let office: OfficeProcess | undefined;
      try {
        office = await bounded(started, limits, job.op, () => {
          void started.then(
            (late) => late.kill(),
            () => undefined,
          );
        });
        const running = office;
        return await bounded(running.send(job), limits, job.op, () => running.kill());
      } finally {
        office?.kill();
        await office?.gone();
      }
    });
  }

  async close(): Promise<void> {
    await this.#queue.run(async () => undefined);
    rmSync(this.profileDir, { recursive: true, force: true });
  }
}
