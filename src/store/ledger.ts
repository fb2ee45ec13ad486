import type { Db } from './database.js';
import { processIsAlive } from './processes.js';
import type { LedgerRecords, LedgerState } from './records.js';

export type LedgerClaim =
  | { kind: 'claimed' }
  | { kind: 'reclaimed' }
  | { kind: 'done'; envelope: string }
  | { kind: 'reused' }
  | { kind: 'in_flight' }
  | { kind: 'unknown' };

interface LedgerRow {
  state: LedgerState;
  input_hash: string;
  envelope: string | null;
  pid: number | null;
}

/**
 * The idempotency ledger: tool + request id -> what happened. Old programs remember no
 * request, so the wrapper remembers for them.
 */
export class Ledger implements LedgerRecords {
  readonly #db: Db;
  readonly #select;
  readonly #insert;
  readonly #finish;
  readonly #setState;
  readonly #forget;
  readonly #reclaim;

  constructor(db: Db) {
    this.#db = db;
    this.#select = db.prepare<[string, string], LedgerRow>(
      'SELECT state, input_hash, envelope, pid FROM ledger WHERE tool = ? AND request_id = ?',
    );
    this.#insert = db.prepare(
      `INSERT INTO ledger (tool, request_id, state, input_hash, pid, started_at) VALUES (?, ?, 'in_flight', ?, ?, ?)`,
    );
    this.#finish = db.prepare(
      `UPDATE ledger SET state = 'done', envelope = ?, finished_at = ? WHERE tool = ? AND request_id = ?`,
    );
    this.#setState = db.prepare(
      'UPDATE ledger SET state = ?, finished_at = ? WHERE tool = ? AND request_id = ?',
    );
    this.#forget = db.prepare('DELETE FROM ledger WHERE tool = ? AND request_id = ?');
    this.#reclaim = db.prepare(
      `UPDATE ledger SET state = 'in_flight', pid = ?, started_at = ?, finished_at = NULL WHERE tool = ? AND request_id = ?`,
    );
  }

  /**
   * What both kinds of claim answer alike: a first claim, other input under the id, a done
   * call, a claim held by a live process. Undefined when the claim was left by a dead one.
   */
  #answerAlike(tool: string, requestId: string, inputHash: string): LedgerClaim | undefined {
    const row = this.#select.get(tool, requestId);
    if (!row) {
      this.#insert.run(tool, requestId, inputHash, process.pid, new Date().toISOString());
      return { kind: 'claimed' };
    }
    if (row.input_hash !== inputHash) return { kind: 'reused' };
    if (row.state === 'done' && row.envelope !== null) return { kind: 'done', envelope: row.envelope };
    if (row.state === 'in_flight' && row.pid !== null && (row.pid === process.pid || processIsAlive(row.pid)))
      return { kind: 'in_flight' };
    return undefined;
  }

  /** Claims the request id for this call, atomically, or says why it cannot run. */
  claim(tool: string, requestId: string, inputHash: string): LedgerClaim {
    return this.#db
      .transaction((): LedgerClaim => {
        const answer = this.#answerAlike(tool, requestId, inputHash);
        if (answer) return answer;
        // Left in flight by a process that died: nobody knows whether the write landed.
        this.#setState.run('unknown', new Date().toISOString(), tool, requestId);
        return { kind: 'unknown' };
      })
      .immediate();
  }

  /**
   * Claims the request id for a call that takes over from one that died: a claim left in
   * flight by a dead process, or left unknown, becomes this process's (`reclaimed`); the
   * caller must settle before it sends anything. A done call, other input or a live claim
   * answer as they do to `claim`.
   */
  reclaim(tool: string, requestId: string, inputHash: string): LedgerClaim {
    return this.#db
      .transaction((): LedgerClaim => {
        const answer = this.#answerAlike(tool, requestId, inputHash);
        if (answer) return answer;
        this.#reclaim.run(process.pid, new Date().toISOString(), tool, requestId);
        return { kind: 'reclaimed' };
      })
      .immediate();
  }

  finish(tool: string, requestId: string, envelope: string): void {
    this.#finish.run(envelope, new Date().toISOString(), tool, requestId);
  }

  markUnknown(tool: string, requestId: string): void {
    this.#setState.run('unknown', new Date().toISOString(), tool, requestId);
  }

  /** Releases the claim of a call that certainly changed nothing, so a retry may run. */
  forget(tool: string, requestId: string): void {
    this.#forget.run(tool, requestId);
  }

  state(tool: string, requestId: string): LedgerState | undefined {
    return this.#select.get(tool, requestId)?.state;
  }
}
