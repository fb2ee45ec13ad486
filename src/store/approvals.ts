import { randomBytes } from 'node:crypto';
import type { Db } from './database.js';
import type { MaskedInput, SecretMask } from './held-input.js';
import { LEASE_MS, type LeaseOwner, ownerIsGone } from './processes.js';
import type { ApprovalRecords, HeldCall } from './records.js';
import { inputDigest, signaturePhrase } from './signature-phrase.js';

/** replaced_by of a call whose changed call is being held right now. */
export const CHANGING = 'changing';

export type ApprovalState = 'pending' | 'approved' | 'executed' | 'denied';

export interface Approval {
  id: string;
  tool: string;
  /** The input with every stored secret masked (held-input.ts); `masks` says where. */
  input: unknown;
  masks: SecretMask[];
  /** Hash of the canonical input: a repeat under the same request id must match it. */
  inputHash: string;
  requestId: string | undefined;
  gate: 'review' | 'signature';
  preview: string;
  /** What the tool's preview read from the system, hashed; the approved call checks it still holds. */
  digest: string | undefined;
  /** A short digest of the stored input (signature-phrase.ts), shown beside the preview. */
  inputDigest: string;
  /**
   * What a signature gate asks the person to type: the tool and the input's digest, made from
   * the stored call each time it is read, so a call held by an older Lift is bound the same way.
   */
  phrase: string | undefined;
  state: ApprovalState;
  envelope: string | undefined;
  createdAt: string;
  decidedAt: string | undefined;
  decidedBy: string | undefined;
  /** The process running an approved call, with its lease. */
  owner: LeaseOwner | undefined;
  /** The held call a person made by changing this one's input (this one was denied for it). */
  replacedBy: string | undefined;
}

/** An approval as both stores keep it (the columns of migrations.ts). */
export interface ApprovalRow {
  id: string;
  tool: string;
  input: string;
  input_masks: string | null;
  input_hash: string;
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
  owner_pid: number | null;
  owner_host: string | null;
  owner_started: string | null;
  heartbeat_at: string | null;
  replaced_by: string | null;
}

export function approvalFromRow(row: ApprovalRow): Approval {
  const input: unknown = JSON.parse(row.input);
  const digest = inputDigest(input);
  return {
    id: row.id,
    tool: row.tool,
    input,
    masks: row.input_masks ? (JSON.parse(row.input_masks) as SecretMask[]) : [],
    inputHash: row.input_hash,
    requestId: row.request_id ?? undefined,
    gate: row.gate,
    preview: row.preview,
    digest: row.digest ?? undefined,
    inputDigest: digest,
    phrase: row.gate === 'signature' ? signaturePhrase(row.tool, digest) : undefined,
    state: row.state,
    envelope: row.envelope ?? undefined,
    createdAt: row.created_at,
    decidedAt: row.decided_at ?? undefined,
    decidedBy: row.decided_by ?? undefined,
    owner:
      row.owner_pid !== null && row.owner_host !== null
        ? {
            pid: row.owner_pid,
            host: row.owner_host,
            started: row.owner_started ?? undefined,
            heartbeatAt: row.heartbeat_at ?? row.decided_at ?? row.created_at,
          }
        : undefined,
    replacedBy: row.replaced_by ?? undefined,
  };
}

/**
 * Whether the process that was running an approved call is gone. A call approved by Lift
 * 0.1.0 names no owner; it counts as gone once a lease's time has passed since approval.
 */
export function approverIsGone(approval: Approval, now = Date.now()): boolean {
  if (approval.state !== 'approved') return false;
  if (approval.owner) return ownerIsGone(approval.owner, now);
  return now - Date.parse(approval.decidedAt ?? approval.createdAt) > LEASE_MS;
}

/** Held calls waiting for a person, and what became of them. */
export class Approvals implements ApprovalRecords {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  hold(entry: HeldCall): Approval {
    const id = `ap_${randomBytes(6).toString('hex')}`;
    this.#db
      .prepare(
        `INSERT INTO approvals (id, tool, input, input_masks, input_hash, request_id, gate, preview, digest, phrase, state, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
      )
      .run(
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
      );
    return this.get(id)!;
  }

  /**
   * Masks the inputs Lift 0.1.0 stored as they were (secrets and all), once: after this they
   * are stored like every held input since.
   */
  maskStoredInputs(mask: (input: unknown) => MaskedInput): void {
    const rows = this.#db
      .prepare<[], { id: string; input: string }>('SELECT id, input FROM approvals WHERE input_masks IS NULL')
      .all();
    if (rows.length === 0) return;
    const update = this.#db.prepare('UPDATE approvals SET input = ?, input_masks = ? WHERE id = ?');
    // Overwrite the old bytes too: freed space in a page would otherwise keep the values.
    const secureDelete = this.#db.pragma('secure_delete', { simple: true }) as number;
    this.#db.pragma('secure_delete = ON');
    try {
      this.#db.transaction(() => {
        for (const row of rows) {
          const masked = mask(JSON.parse(row.input));
          update.run(JSON.stringify(masked.input), JSON.stringify(masked.masks), row.id);
        }
      })();
    } finally {
      this.#db.pragma(`secure_delete = ${secureDelete}`);
    }
  }

  get(id: string): Approval | undefined {
    const row = this.#db.prepare<[string], ApprovalRow>('SELECT * FROM approvals WHERE id = ?').get(id);
    return row ? approvalFromRow(row) : undefined;
  }

  /** The open or settled approval of an earlier identical call, so a repeat is not held twice. */
  findByRequest(tool: string, requestId: string): Approval | undefined {
    const row = this.#db
      .prepare<[string, string], ApprovalRow>(
        `SELECT * FROM approvals WHERE tool = ? AND request_id = ? AND state != 'denied' ORDER BY created_at DESC LIMIT 1`,
      )
      .get(tool, requestId);
    return row ? approvalFromRow(row) : undefined;
  }

  list(states: ApprovalState[] = ['pending']): Approval[] {
    const marks = states.map(() => '?').join(', ');
    return this.#db
      .prepare<string[], ApprovalRow>(`SELECT * FROM approvals WHERE state IN (${marks}) ORDER BY created_at`)
      .all(...states)
      .map(approvalFromRow);
  }

  /**
   * Moves a pending approval to `approved`, owned by `owner`. Exactly one caller wins, even
   * across processes: the update only matches while the row is still pending.
   */
  take(id: string, decidedBy: string, owner: LeaseOwner): boolean {
    const result = this.#db
      .prepare(
        `UPDATE approvals SET state = 'approved', decided_at = ?, decided_by = ?,
           owner_pid = ?, owner_host = ?, owner_started = ?, heartbeat_at = ?
         WHERE id = ? AND state = 'pending'`,
      )
      .run(new Date().toISOString(), decidedBy, ...ownerValues(owner), id);
    return result.changes === 1;
  }

  /**
   * Makes `owner` the owner of an approved call whose owner is gone. Exactly one caller wins:
   * the check and the update happen under the database's write lock.
   */
  takeOver(id: string, owner: LeaseOwner): boolean {
    return this.#db
      .transaction((): boolean => {
        const current = this.get(id);
        if (!current || !approverIsGone(current)) return false;
        this.#db
          .prepare(
            `UPDATE approvals SET owner_pid = ?, owner_host = ?, owner_started = ?, heartbeat_at = ?
             WHERE id = ? AND state = 'approved'`,
          )
          .run(...ownerValues(owner), id);
        return true;
      })
      .immediate();
  }

  /** Renews the lease of a call this owner is still running. */
  heartbeat(id: string, owner: LeaseOwner): void {
    this.#db
      .prepare(
        `UPDATE approvals SET heartbeat_at = ? WHERE id = ? AND state = 'approved' AND owner_pid = ? AND owner_host = ?`,
      )
      .run(new Date().toISOString(), id, owner.pid, owner.host);
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
      .map(approvalFromRow);
  }

  recordExecution(id: string, envelope: string): void {
    this.#db.prepare(`UPDATE approvals SET state = 'executed', envelope = ? WHERE id = ?`).run(envelope, id);
  }

  holdAgain(id: string, envelope: string): void {
    this.#db
      .prepare(
        `UPDATE approvals SET state = 'pending', envelope = ?, decided_at = NULL, decided_by = NULL,
           owner_pid = NULL, owner_host = NULL, owner_started = NULL, heartbeat_at = NULL
         WHERE id = ? AND state = 'approved'`,
      )
      .run(envelope, id);
  }
}

export function ownerValues(owner: LeaseOwner): [number, string, string | null, string] {
  return [owner.pid, owner.host, owner.started ?? null, owner.heartbeatAt];
}
