import PgBoss from 'pg-boss';
import type { Envelope } from '../contract/envelope.js';
import { LiftError } from '../contract/errors.js';
import { retrying } from '../store/postgres/connection.js';
import { type JobData, type JobOutput, jobIdOf, jobKeyOf, QUEUE } from './job.js';

/** Tries before a job is given up: hand-backs and lost workers count, and a settle read makes each safe. */
const RETRY_LIMIT = 50;
const RETRY_DELAY_S = 1;
/** Longer than any tool's deadline: a worker that is alive finishes or hands back well before. */
const EXPIRE_S = 15 * 60;
const POLL_MS = 100;

export interface FetchedJob {
  id: string;
  data: JobData;
  /** How many times the job was taken before: above 0, an earlier worker may have started it. */
  retryCount: number;
}

/**
 * The job queue on PostgreSQL, through pg-boss (docs/decisions/job-queue.md): jobs in the same
 * database as the shared store, taken with SKIP LOCKED, retried with a delay, their results
 * kept on the job. Every operation is retried while the server restarts.
 */
export class JobQueue {
  readonly #boss: PgBoss;

  private constructor(boss: PgBoss) {
    this.#boss = boss;
  }

  static async open(url: string, options: { maintain?: boolean } = {}): Promise<JobQueue> {
    const boss = new PgBoss({
      connectionString: url,
      schema: 'pgboss',
      max: 4,
      schedule: false,
      supervise: options.maintain ?? false,
      migrate: true,
    });
    // pg-boss reports a lost connection as an event; its loops carry on once the server is back.
    boss.on('error', () => undefined);
    await retrying(() => boss.start());
    await retrying(async () => {
      if (!(await boss.getQueue(QUEUE)))
        await boss.createQueue(QUEUE, {
          name: QUEUE,
          retryLimit: RETRY_LIMIT,
          retryDelay: RETRY_DELAY_S,
          expireInSeconds: EXPIRE_S,
        });
    }).catch((error: unknown) => {
      // Two processes creating it at once: the other one won.
      if (!/already exists|duplicate key/i.test(String(error))) throw error;
    });
    return new JobQueue(boss);
  }

  /** Sends a job under its request id; a second send of the same id is the same job. */
  async enqueue(data: JobData): Promise<string> {
    const id = jobIdOf(jobKeyOf(data));
    await retrying(() =>
      this.#boss.send(QUEUE, data, {
        id,
        retryLimit: RETRY_LIMIT,
        retryDelay: RETRY_DELAY_S,
        expireInSeconds: EXPIRE_S,
      }),
    );
    return id;
  }

  /** Up to `count` jobs for this worker, each now active and its alone. */
  async fetch(count: number): Promise<FetchedJob[]> {
    const jobs = await this.#boss.fetch<JobData>(QUEUE, { batchSize: count, includeMetadata: true });
    return jobs.map((job) => ({ id: job.id, data: job.data, retryCount: job.retryCount }));
  }

  async complete(id: string, output: JobOutput): Promise<void> {
    await retrying(() => this.#boss.complete(QUEUE, id, output as object));
  }

  /** The job goes back to the queue after a short delay (counts as a try). */
  async retry(ids: string[]): Promise<void> {
    if (ids.length > 0) await retrying(() => this.#boss.fail(QUEUE, ids));
  }

  /**
   * Hands active jobs back untouched, for another worker (a worker stopping with SIGTERM): one
   * statement from active to created, pg-boss's cancel and resume in one. As two calls, a
   * caller reading the job between them saw it cancelled and gave up on it.
   */
  async handBack(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql(
      `UPDATE pgboss.job SET state = 'created', started_on = NULL
        WHERE name = $1 AND id = ANY ($2::uuid[]) AND state = 'active'`,
      [QUEUE, ids],
    );
  }

  /**
   * Waits for the job of `requestId` (its key, jobKeyOf) to finish and returns its output. A
   * job the queue gave up on answers INTERNAL_ERROR; aborting stops the wait, not the job.
   */
  async result(
    requestId: string,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<JobOutput> {
    const id = jobIdOf(requestId);
    const until = Date.now() + (options.timeoutMs ?? 24 * 3_600_000);
    while (!options.signal?.aborted && Date.now() < until) {
      const job = await retrying(() =>
        this.#boss.getJobById<JobData>(QUEUE, id, { includeArchive: true }),
      ).catch(() => null);
      if (job?.state === 'completed' && job.output) return job.output as JobOutput;
      if (job?.state === 'failed' || job?.state === 'cancelled') {
        throw new LiftError(
          'INTERNAL_ERROR',
          `Job ${requestId} ended ${job.state} after ${job.retryCount} tries.`,
          {
            outcome: 'unknown',
            hint: `The ledger knows what happened: call again with request_id ${requestId} (it never runs twice).`,
          },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new LiftError('TIMEOUT', `Job ${requestId} did not finish while waiting.`, {
      outcome: 'unknown',
      hint: `It is still queued or running; wait for it with the same request_id ${requestId}.`,
    });
  }

  /** Sends and waits: the envelope of a call run by a worker. */
  async call(
    data: Extract<JobData, { kind: 'call' }>,
    options: { signal?: AbortSignal } = {},
  ): Promise<Envelope> {
    await this.enqueue(data);
    const output = await this.result(jobKeyOf(data), options);
    if ('envelope' in output) return output.envelope;
    throw new LiftError(output.refused.code as never, output.refused.message, {
      ...(output.refused.hint ? { hint: output.refused.hint } : {}),
    });
  }

  async close(): Promise<void> {
    await this.#boss.stop({ graceful: false, wait: true, close: true }).catch(() => undefined);
  }

  /** Runs SQL on the queue's pool (the worker registry shares it). */
  sql<R>(text: string, values: unknown[] = []): Promise<R[]> {
    return retrying(async () => (await this.#boss.getDb().executeSql(text, values)).rows as R[]);
  }
}
