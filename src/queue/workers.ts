import { LEASE_MS } from '../store/processes.js';
import { QUEUE } from './job.js';
import type { JobQueue } from './queue.js';

export interface WorkerIdentity {
  id: string;
  host: string;
  pid: number;
  /** The address the worker's host is reached at, for people reading the registry. */
  address: string;
}

export interface WorkerRow {
  id: string;
  host: string;
  pid: number;
  address: string;
  state: 'running' | 'stopped' | 'lost';
  heartbeat_at: string;
  jobs: string[];
  done: number;
}

/**
 * The workers and their heartbeats, in the shared database. Each running worker says every
 * few seconds which jobs it holds; a worker whose heartbeat lapsed for a lease (killed, its
 * host gone) is marked lost by whichever worker notices first, and its jobs go back to the
 * queue. The job's next run settles before it writes (outcome unknown -> settle read).
 */
export class WorkerRegistry {
  readonly #queue: JobQueue;

  constructor(queue: JobQueue) {
    this.#queue = queue;
  }

  /**
   * Creates the registry's tables. Two workers starting at once on a new database would both
   * try, and PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe against that (a unique
   * violation on pg_type), so the statements run as one query (one implicit transaction, rolled back whole on an error)
   * under a transaction-level advisory lock.
   */
  async prepare(): Promise<void> {
    // No parameters: a simple-protocol query, which may hold several statements.
    await this.#queue.sql(`SELECT pg_advisory_xact_lock(hashtext('lift worker registry'));
      CREATE TABLE IF NOT EXISTS lift_workers (
        id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        address TEXT NOT NULL,
        state TEXT NOT NULL,
        started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        jobs TEXT[] NOT NULL DEFAULT '{}',
        done INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE IF NOT EXISTS lift_held_jobs (
        approval_id TEXT PRIMARY KEY,
        request_id TEXT NOT NULL
      )`);
  }

  async join(worker: WorkerIdentity): Promise<void> {
    await this.#queue.sql(
      `INSERT INTO lift_workers (id, host, pid, address, state) VALUES ($1, $2, $3, $4, 'running')
       ON CONFLICT (id) DO UPDATE SET state = 'running', heartbeat_at = now()`,
      [worker.id, worker.host, worker.pid, worker.address],
    );
  }

  /** The heartbeat: alive, holding these jobs, with this many done. */
  async beat(id: string, jobs: string[], done: number): Promise<void> {
    await this.#queue.sql(
      `UPDATE lift_workers SET heartbeat_at = now(), jobs = $2, done = $3, state = 'running' WHERE id = $1`,
      [id, jobs, done],
    );
  }

  async leave(id: string, done: number): Promise<void> {
    await this.#queue.sql(`UPDATE lift_workers SET state = 'stopped', jobs = '{}', done = $2 WHERE id = $1`, [
      id,
      done,
    ]);
  }

  /**
   * Marks every worker whose lease lapsed as lost, exactly once (one statement, whoever runs
   * it first), and returns the jobs they held, with the jobs active for a lease that no
   * running worker holds: a worker killed between taking a job and announcing it (without
   * these, such a job waited for pg-boss's expiry, 15 min).
   */
  async reclaimLost(): Promise<string[]> {
    const lost = await this.#queue.sql<{ jobs: string[] }>(
      `UPDATE lift_workers SET state = 'lost' WHERE state = 'running'
         AND heartbeat_at < now() - make_interval(secs => $1) RETURNING jobs`,
      [LEASE_MS / 1000],
    );
    const unheld = await this.#queue.sql<{ id: string }>(
      `SELECT job.id::text AS id FROM pgboss.job AS job
        WHERE job.name = $1 AND job.state = 'active'
          AND job.started_on < now() - make_interval(secs => $2)
          AND NOT EXISTS (SELECT 1 FROM lift_workers AS worker
                           WHERE worker.state = 'running' AND job.id::text = ANY (worker.jobs))`,
      [QUEUE, LEASE_MS / 1000],
    );
    return [...new Set([...lost.flatMap((row) => row.jobs), ...unheld.map((row) => row.id)])];
  }

  list(): Promise<WorkerRow[]> {
    return this.#queue.sql<WorkerRow>(
      `SELECT id, host, pid, address, state, heartbeat_at::text, jobs, done FROM lift_workers ORDER BY started_at`,
    );
  }

  /** A worker's job whose call was held for a person: its approval runs as a job too. */
  async rememberHeld(approvalId: string, requestId: string): Promise<void> {
    await this.#queue.sql(
      'INSERT INTO lift_held_jobs (approval_id, request_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [approvalId, requestId],
    );
  }

  async heldByJob(approvalId: string): Promise<boolean> {
    const rows = await this.#queue.sql('SELECT 1 FROM lift_held_jobs WHERE approval_id = $1', [approvalId]);
    return rows.length > 0;
  }
}
