import { randomBytes } from 'node:crypto';
import type { Db } from './database.js';

/** replaced_by of a call whose changed call is being held right now. */
export const CHANGING = 'changing';

export type ApprovalState = 'pending' | 'approved' | 'executed' | 'denied';

export interface Approval {
  id: string;
  tool: string;
  input: unknown;
  requestId: string | undefined;
  gate: 'review' | 'signature';
  preview: string;
  /** What the tool's preview read from the system, hashed; the approved call checks it still holds. */
  digest: string | undefined;
  phrase: string | undefined;
  state: ApprovalState;
  envelope: string | undefined;
  createdAt: string;
  decidedAt: string | undefined;
  decidedBy: string | undefined;
  /** The held call a person made by changing this one's input (this one was denied for it). */
  replacedBy: string | undefined;
}

interface ApprovalRow {
  id: string;
  tool: string;
  input: string;
  request_id: string | null;
  gate: 'review' | 'signature';
  preview: string;
  digest: string | null;
  phrase: string | null;
  state: ApprovalState;
  envelope: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
  replaced_by: string | null;
}

function fromRow(row: ApprovalRow): Approval {
  return {
    id: row.id,
    tool: row.tool,
    input: JSON.parse(row.input),
    requestId: row.request_id ?? undefined,
    gate: row.gate,
    preview: row.preview,
    digest: row.digest ?? undefined,
    phrase: row.phrase ?? undefined,
    state: row.state,
    envelope: row.envelope ?? undefined,
    createdAt: row.created_at,
    decidedAt: row.decided_at ?? undefined,
    decidedBy: row.decided_by ?? undefined,
    replacedBy: row.replaced_by ?? undefined,
  };
}

/** Held calls waiting for a person, and what became of them. */
export class Approvals {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  hold(entry: {
    tool: string;
    input: unknown;
    requestId: string | undefined;
    gate: 'review' | 'signature';
    preview: string;
    digest?: string | undefined;
    phrase: string | undefined;
  }): Approval {
    const id = `ap_${randomBytes(6).toString('hex')}`;
    this.#db
      .prepare(
        `INSERT INTO approvals (id, tool, input, request_id, gate, preview, digest, phrase, state, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
      )
      .run(
        id,
        entry.tool,
        JSON.stringify(entry.input),
        entry.requestId ?? null,
        entry.gate,
        entry.preview,
        entry.digest ?? null,
        entry.phrase ?? null,
        new Date().toISOString(),
      );
    return this.get(id)!;
  }

  get(id: string): Approval | undefined {
    const row = this.#db.prepare<[string], ApprovalRow>('SELECT * FROM approvals WHERE id = ?').get(id);
    return row ? fromRow(row) : undefined;
  }

  /** The open or settled approval of an earlier identical call, so a repeat is not held twice. */
  findByRequest(tool: string, requestId: string): Approval | undefined {
    const row = this.#db
      .prepare<[string, string], ApprovalRow>(
        `SELECT * FROM approvals WHERE tool = ? AND request_id = ? AND state != 'denied' ORDER BY created_at DESC LIMIT 1`,
      )
      .get(tool, requestId);
    return row ? fromRow(row) : undefined;
  }

  list(states: ApprovalState[] = ['pending']): Approval[] {
    const marks = states.map(() => '?').join(', ');
    return this.#db
      .prepare<string[], ApprovalRow>(`SELECT * FROM approvals WHERE state IN (${marks}) ORDER BY created_at`)
      .all(...states)
      .map(fromRow);
  }

  /**
   * Moves a pending approval to `approved`. Exactly one caller wins, even across
   * processes: the update only matches while the row is still pending.
   */
  take(id: string, decidedBy: string): boolean {
    const result = this.#db
      .prepare(
        `UPDATE approvals SET state = 'approved', decided_at = ?, decided_by = ? WHERE id = ? AND state = 'pending'`,
      )
      .run(new Date().toISOString(), decidedBy, id);
    return result.changes === 1;
  }

  deny(id: string, decidedBy: string): boolean {
    const result = this.#db
      .prepare(
        `UPDATE approvals SET state = 'denied', decided_at = ?, decided_by = ? WHERE id = ? AND state = 'pending'`,
      )
      .run(new Date().toISOString(), decidedBy, id);
    return result.changes === 1;
  }

  /**
   * Denies a pending call because the person changed its input. Until linkReplacement names the
   * changed call, the call reads as CHANGING, so a caller waiting on it keeps waiting.
   */
  denyForChange(id: string, decidedBy: string): boolean {
    const result = this.#db
      .prepare(
        `UPDATE approvals SET state = 'denied', decided_at = ?, decided_by = ?, replaced_by = ? WHERE id = ? AND state = 'pending'`,
      )
      .run(new Date().toISOString(), decidedBy, CHANGING, id);
    return result.changes === 1;
  }

  /** The changed call that took this one's place, or none when the changed call was not held. */
  linkReplacement(id: string, replacedBy: string | undefined): void {
    this.#db.prepare(`UPDATE approvals SET replaced_by = ? WHERE id = ?`).run(replacedBy ?? null, id);
  }

  /** The calls people answered most recently, newest first. */
  recent(limit = 20): Approval[] {
    return this.#db
      .prepare<[number], ApprovalRow>(
        `SELECT * FROM approvals WHERE state != 'pending' ORDER BY COALESCE(decided_at, created_at) DESC LIMIT ?`,
      )
      .all(limit)
      .map(fromRow);
  }

  recordExecution(id: string, envelope: string): void {
    this.#db.prepare(`UPDATE approvals SET state = 'executed', envelope = ? WHERE id = ?`).run(envelope, id);
  }
}
