import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import {
  type Approval,
  type ApprovalRow,
  type ApprovalState,
  approvalFromRow,
  approverIsGone,
  CHANGING,
  ownerValues,
} from '../approvals.js';
import type { LeaseOwner } from '../processes.js';
import type { ApprovalRecords, HeldCall } from '../records.js';
import { retrying, transaction } from './connection.js';

/**
 * Held calls in the shared store: a person's answer given anywhere (the console, `lift approve`,
 * an MCP client) is seen by every worker, and the approved call is taken by exactly one owner:
 * each move is one statement that matches only the state it moves from.
 */
export class PostgresApprovals implements ApprovalRecords {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async #rows(text: string, values: unknown[]): Promise<Approval[]> {
    const { rows } = await retrying(() => this.#pool.query<ApprovalRow>(text, values));
    return rows.map(approvalFromRow);
  }

  async #changed(text: string, values: unknown[]): Promise<boolean> {
    const result = await retrying(() => this.#pool.query(text, values));
    return result.rowCount === 1;
  }

  async hold(entry: HeldCall): Promise<Approval> {
    const id = `ap_${randomBytes(6).toString('hex')}`;
    await retrying(() =>
      this.#pool.query(
        `INSERT INTO lift_approvals (id, tool, input, input_masks, input_hash, request_id, gate, preview, digest, phrase, state, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11) ON CONFLICT DO NOTHING`,
        [
          id,
          entry.tool,
          JSON.stringify(entry.input.input),
          JSON.stringify(entry.input.masks),
          entry.inputHash,
          entry.requestId ?? null,
          entry.gate,
          entry.preview,
          entry.digest ?? null,
          entry.phrase ?? null,
          new Date().toISOString(),
        ],
      ),
    );
    return (await this.get(id))!;
  }

  async get(id: string): Promise<Approval | undefined> {
    return (await this.#rows('SELECT * FROM lift_approvals WHERE id = $1', [id]))[0];
  }

  async findByRequest(tool: string, requestId: string): Promise<Approval | undefined> {
    const found = await this.#rows(
      `SELECT * FROM lift_approvals WHERE tool = $1 AND request_id = $2 AND state != 'denied' ORDER BY created_at DESC LIMIT 1`,
      [tool, requestId],
    );
    return found[0];
  }

  list(states: ApprovalState[] = ['pending']): Promise<Approval[]> {
    return this.#rows('SELECT * FROM lift_approvals WHERE state = ANY($1) ORDER BY created_at', [states]);
  }

  take(id: string, decidedBy: string, owner: LeaseOwner): Promise<boolean> {
    return this.#changed(
      `UPDATE lift_approvals SET state = 'approved', decided_at = $1, decided_by = $2,
         owner_pid = $3, owner_host = $4, owner_started = $5, heartbeat_at = $6
       WHERE id = $7 AND state = 'pending'`,
      [new Date().toISOString(), decidedBy, ...ownerValues(owner), id],
    );
  }

  takeOver(id: string, owner: LeaseOwner): Promise<boolean> {
    return transaction(this.#pool, async (sql) => {
      const { rows } = await sql.query<ApprovalRow>('SELECT * FROM lift_approvals WHERE id = $1 FOR UPDATE', [
        id,
      ]);
      const current = rows[0] ? approvalFromRow(rows[0]) : undefined;
      if (!current || !approverIsGone(current)) return false;
      await sql.query(
        `UPDATE lift_approvals SET owner_pid = $1, owner_host = $2, owner_started = $3, heartbeat_at = $4
         WHERE id = $5 AND state = 'approved'`,
        [...ownerValues(owner), id],
      );
      return true;
    });
  }

  async heartbeat(id: string, owner: LeaseOwner): Promise<void> {
    await this.#changed(
      `UPDATE lift_approvals SET heartbeat_at = $1 WHERE id = $2 AND state = 'approved' AND owner_pid = $3 AND owner_host = $4`,
      [new Date().toISOString(), id, owner.pid, owner.host],
    );
  }

  deny(id: string, decidedBy: string): Promise<boolean> {
    return this.#changed(
      `UPDATE lift_approvals SET state = 'denied', decided_at = $1, decided_by = $2 WHERE id = $3 AND state = 'pending'`,
      [new Date().toISOString(), decidedBy, id],
    );
  }

  denyForChange(id: string, decidedBy: string): Promise<boolean> {
    return this.#changed(
      `UPDATE lift_approvals SET state = 'denied', decided_at = $1, decided_by = $2, replaced_by = $3 WHERE id = $4 AND state = 'pending'`,
      [new Date().toISOString(), decidedBy, CHANGING, id],
    );
  }

  async linkReplacement(id: string, replacedBy: string | undefined): Promise<void> {
    await this.#changed('UPDATE lift_approvals SET replaced_by = $1 WHERE id = $2', [replacedBy ?? null, id]);
  }

  recent(limit = 20): Promise<Approval[]> {
    return this.#rows(
      `SELECT * FROM lift_approvals WHERE state != 'pending' ORDER BY COALESCE(decided_at, created_at) DESC LIMIT $1`,
      [limit],
    );
  }

  async holdAgain(id: string, envelope: string): Promise<void> {
    await this.#changed(
      `UPDATE lift_approvals SET state = 'pending', envelope = $1, decided_at = NULL, decided_by = NULL,
         owner_pid = NULL, owner_host = NULL, owner_started = NULL, heartbeat_at = NULL
       WHERE id = $2 AND state = 'approved'`,
      [envelope, id],
    );
  }

  async recordExecution(id: string, envelope: string): Promise<void> {
    await this.#changed(`UPDATE lift_approvals SET state = 'executed', envelope = $1 WHERE id = $2`, [
      envelope,
      id,
    ]);
  }
}
