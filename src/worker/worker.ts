import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type FetchedJob, JobQueue } from '../queue/queue.js';
import { WorkerRegistry } from '../queue/workers.js';
import type { Runtime } from '../runtime/runtime.js';
import { runJob } from './run-job.js';

export interface WorkerOptions {
  runtime: Runtime;
  /** The shared database (lift.config `store.postgres`), where the queue is too. */
  url: string;
  /** Jobs run at once (each replay takes a page of the runtime's warm pool). */
  concurrency?: number;
  /** The address this worker's host is reached at, shown in the registry. */
  address?: string;
  /** How long SIGTERM waits for running jobs before handing them back. */
  graceMs?: number;
  log?: (line: string) => void;
}

const IDLE_POLL_MS = 200;
const BEAT_MS = 2_000;

/**
 * `lift worker`: takes jobs from the queue and runs them through one long-lived runtime, so
 * its warm pools (signed-in browser contexts per profile, the office worker) serve job after
 * job; reports a heartbeat with the jobs it holds; marks workers whose heartbeat lapsed as
 * lost and puts their jobs back; on stop finishes what it runs (within the grace) and hands
 * back the rest.
 */
export class Worker {
  readonly id = `w_${randomBytes(4).toString('hex')}`;
  readonly #options: WorkerOptions;
  readonly #running = new Map<string, { job: FetchedJob; abort: AbortController; done: Promise<void> }>();
  #queue: JobQueue | undefined;
  #registry: WorkerRegistry | undefined;
  #stopping = false;
  #done = 0;
  #beat: NodeJS.Timeout | undefined;
  #loop: Promise<void> | undefined;
  /** Ends the take loop's wait: a slot freed, or the worker stops. */
  #wake: () => void = () => undefined;

  constructor(options: WorkerOptions) {
    this.#options = options;
  }

  get done(): number {
    return this.#done;
  }

  async start(): Promise<void> {
    this.#queue = await JobQueue.open(this.#options.url, { maintain: true });
    this.#registry = new WorkerRegistry(this.#queue);
    await this.#registry.prepare();
    await this.#registry.join({
      id: this.id,
      host: hostname(),
      pid: process.pid,
      address: this.#options.address ?? hostname(),
    });
    this.#beat = setInterval(() => void this.#heartbeat(), BEAT_MS);
    this.#loop = this.#take();
    this.#log(`worker ${this.id} on ${hostname()} (pid ${process.pid}) takes jobs, ${this.#slots} at a time`);
  }

  /** Resolves when the worker has stopped (after stop()). */
  finished(): Promise<void> {
    return this.#loop ?? Promise.resolve();
  }

  /** Stops taking jobs; running ones finish within the grace, the rest go back to the queue. */
  async stop(): Promise<void> {
    if (this.#stopping) return this.finished();
    this.#stopping = true;
    this.#wake();
    await this.#loop;
    const grace = new Promise((resolve) => setTimeout(resolve, this.#options.graceMs ?? 30_000).unref());
    await Promise.race([Promise.all([...this.#running.values()].map((run) => run.done)), grace]);
    const left = [...this.#running.values()];
    for (const run of left) run.abort.abort(new Error('the worker is stopping'));
    await this.#queue?.handBack(left.map((run) => run.job.id)).catch(() => undefined);
    if (left.length > 0) this.#log(`handed back ${left.length} job(s)`);
    clearInterval(this.#beat);
    await this.#registry?.leave(this.id, this.#done).catch(() => undefined);
    await this.#queue?.close();
  }

  get #slots(): number {
    return this.#options.concurrency ?? 2;
  }

  async #take(): Promise<void> {
    const queue = this.#queue!;
    while (!this.#stopping) {
      const free = this.#slots - this.#running.size;
      let jobs: FetchedJob[] = [];
      if (free > 0) jobs = await queue.fetch(free).catch(() => []);
      // The registry hears of a job before it starts: a worker killed mid-job is known to hold
      // it, and whoever notices the lapsed heartbeat puts it back. (Killed between the fetch
      // and this write, the job is active and held by nobody: it is put back after a lease too.)
      if (jobs.length > 0) await this.#announce(jobs);
      for (const job of jobs) this.#run(job);
      if (jobs.length === 0) await this.#pause(free > 0);
    }
  }

  /**
   * Waits before taking more: with every slot busy, until one frees (a fixed nap here cost
   * each job up to IDLE_POLL_MS, half the throughput of 200 ms jobs); with the queue empty,
   * IDLE_POLL_MS at most.
   */
  #pause(queueEmpty: boolean): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
      if (this.#stopping) resolve();
      else if (queueEmpty) setTimeout(resolve, IDLE_POLL_MS);
    });
  }

  #run(job: FetchedJob): void {
    const abort = new AbortController();
    const done = this.#finish(job, abort.signal).finally(() => {
      this.#running.delete(job.id);
      this.#wake();
    });
    this.#running.set(job.id, { job, abort, done });
  }

  async #finish(job: FetchedJob, signal: AbortSignal): Promise<void> {
    const queue = this.#queue!;
    try {
      const end = await runJob(this.#options.runtime, job.data, job.retryCount, signal);
      if (signal.aborted) return; // handed back by stop()
      if (end.kind === 'later') {
        await queue.retry([job.id]);
        return;
      }
      if (end.held) await this.#registry!.rememberHeld(end.held, job.data.request_id);
      await queue.complete(job.id, end.output);
      this.#done++;
    } catch (error) {
      // The store or the queue was away longer than a restart: the job is tried again.
      this.#log(`job ${job.data.request_id}: ${error instanceof Error ? error.message : String(error)}`);
      await queue.retry([job.id]).catch(() => undefined);
    }
  }

  async #announce(jobs: FetchedJob[]): Promise<void> {
    const held = [...this.#running.keys(), ...jobs.map((job) => job.id)];
    await this.#registry!.beat(this.id, held, this.#done).catch(() => undefined);
  }

  async #heartbeat(): Promise<void> {
    try {
      await this.#registry!.beat(this.id, [...this.#running.keys()], this.#done);
      const orphaned = await this.#registry!.reclaimLost();
      if (orphaned.length > 0) {
        await this.#queue!.retry(orphaned);
        this.#log(`put back ${orphaned.length} job(s) of a lost worker`);
      }
    } catch {
      // The server is away; the next beat tries again.
    }
  }

  #log(line: string): void {
    this.#options.log?.(line);
  }
}
