import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { LedgerClaim } from '../ledger.js';
import { HEARTBEAT_MS, type LeaseOwner, ownerIsGone, thisProcess } from '../processes.js';
import type { LedgerRecords, LedgerState } from '../records.js';
import { retrying, type Sql, transaction } from './connection.js';

interface Row {
  state: LedgerState;
  input_hash: string;
  envelope: string | null;
  owner_pid: number | null;
  owner_host: string | null;
  owner_started: string | null;
  heartbeat_at: string | null;
  claim_token: string | null;
}

/**
 * The idempotency ledger shared by every worker: the claim is one transaction on the
 * primary key (tool, request_id), so two workers racing on one request id never both run
 * it. A claim names its owner (pid, host, process start) and is renewed every few seconds
 * while the call runs; an owner on another host whose lease lapsed is gone, and the call it
 * left answers outcome unknown until a settle read decides.
 */
export class PostgresLedger implements LedgerRecords {
  readonly #pool: pg.Pool;
  /** Claims this process holds in flight, renewed together by one statement per beat. */
  #held = 0;
  #beat: NodeJS.Timeout | undefined;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  claim(tool: string, requestId: string, inputHash: string): Promise<LedgerClaim> {
    return this.#decide(tool, requestId, inputHash, 'claim');
  }

  reclaim(tool: string, requestId: string, inputHash: string): Promise<LedgerClaim> {
    return this.#decide(tool, requestId, inputHash, 'reclaim');
  }

  async #decide(
    tool: string,
    requestId: string,
    inputHash: string,
    kind: 'claim' | 'reclaim',
  ): Promise<LedgerClaim> {
    const owner = thisProcess();
    // Names this attempt: a commit whose answer was lost to a dropped connection is recognised
    // as ours when the transaction is tried again.
    const token = randomBytes(8).toString('hex');
    const answer = await transaction(this.#pool, async (sql) => {
      const inserted = await sql.query(
        `INSERT INTO lift_ledger (tool, request_id, state, input_hash, owner_pid, owner_host, owner_started, heartbeat_at, claim_token, started_at)
         VALUES ($1, $2, 'in_flight', $3, $4, $5, $6, $7, $8, $7) ON CONFLICT DO NOTHING`,
        [tool, requestId, inputHash, owner.pid, owner.host, owner.started ?? null, owner.heartbeatAt, token],
      );
      if (inserted.rowCount === 1) return { kind: 'claimed' } as const;
      const { rows } = await sql.query<Row>(
        'SELECT state, input_hash, envelope, owner_pid, owner_host, owner_started, heartbeat_at, claim_token FROM lift_ledger WHERE tool = $1 AND request_id = $2 FOR UPDATE',
        [tool, requestId],
      );
      const row = rows[0];
      if (!row) throw new Error('ledger row vanished under its lock');
      if (row.claim_token === token) return { kind: 'claimed' } as const;
      if (row.input_hash !== inputHash) return { kind: 'reused' } as const;
      if (row.state === 'done' && row.envelope !== null)
        return { kind: 'done', envelope: row.envelope } as const;
      if (row.state === 'in_flight' && !claimOwnerGone(row)) return { kind: 'in_flight' } as const;
      if (kind === 'claim') {
        await setState(sql, tool, requestId, 'unknown');
        return { kind: 'unknown' } as const;
      }
      await sql.query(
        `UPDATE lift_ledger SET state = 'in_flight', owner_pid = $3, owner_host = $4, owner_started = $5,
           heartbeat_at = $6, claim_token = $7, started_at = $6, finished_at = NULL
         WHERE tool = $1 AND request_id = $2`,
        [tool, requestId, owner.pid, owner.host, owner.started ?? null, owner.heartbeatAt, token],
      );
      return { kind: 'reclaimed' } as const;
    });
    if (answer.kind === 'claimed' || answer.kind === 'reclaimed') this.#hold();
    return answer;
  }

  async finish(tool: string, requestId: string, envelope: string): Promise<void> {
    await retrying(() =>
      this.#pool.query(
        `UPDATE lift_ledger SET state = 'done', envelope = $3, finished_at = $4 WHERE tool = $1 AND request_id = $2`,
        [tool, requestId, envelope, new Date().toISOString()],
      ),
    );
    this.#release();
  }

  async markUnknown(tool: string, requestId: string): Promise<void> {
    await retrying(() => setState(this.#pool, tool, requestId, 'unknown'));
    this.#release();
  }

  async forget(tool: string, requestId: string): Promise<void> {
    await retrying(() =>
      this.#pool.query('DELETE FROM lift_ledger WHERE tool = $1 AND request_id = $2', [tool, requestId]),
    );
    this.#release();
  }

  async state(tool: string, requestId: string): Promise<LedgerState | undefined> {
    const { rows } = await retrying(() =>
      this.#pool.query<{ state: LedgerState }>(
        'SELECT state FROM lift_ledger WHERE tool = $1 AND request_id = $2',
        [tool, requestId],
      ),
    );
    return rows[0]?.state;
  }

  /** Stops renewing; claims left in flight lapse after a lease, as a killed worker's do. */
  close(): void {
    clearInterval(this.#beat);
    this.#beat = undefined;
  }

  #hold(): void {
    this.#held++;
    this.#beat ??= setInterval(() => void this.#renew(), HEARTBEAT_MS);
    this.#beat.unref();
  }

  #release(): void {
    this.#held = Math.max(0, this.#held - 1);
  }

  async #renew(): Promise<void> {
    if (this.#held === 0) return;
    const owner = thisProcess();
    await this.#pool
      .query(
        `UPDATE lift_ledger SET heartbeat_at = $1 WHERE state = 'in_flight' AND owner_host = $2 AND owner_pid = $3`,
        [owner.heartbeatAt, owner.host, owner.pid],
      )
      .catch(() => undefined); // the server restarting: the next beat renews
  }
}

function setState(sql: Sql, tool: string, requestId: string, state: LedgerState) {
  return sql.query(
    'UPDATE lift_ledger SET state = $3, finished_at = $4 WHERE tool = $1 AND request_id = $2',
    [tool, requestId, state, new Date().toISOString()],
  );
}

/** Whether the process holding an in-flight claim is gone (on this host for certain; elsewhere by its lease). */
function claimOwnerGone(row: Row): boolean {
  if (row.owner_pid === null || row.owner_host === null) return true;
  const owner: LeaseOwner = {
    pid: row.owner_pid,
    host: row.owner_host,
    started: row.owner_started ?? undefined,
    heartbeatAt: row.heartbeat_at ?? new Date(0).toISOString(),
  };
  return ownerIsGone(owner);
}
