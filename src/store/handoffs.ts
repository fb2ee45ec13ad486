import type { Db } from './database.js';
import { type LeaseOwner, ownerIsGone, thisProcess } from './processes.js';

/** waiting for the person; done (they pressed done); expired (the deadline passed); ended (the run stopped first). */
export type HandoffState = 'waiting' | 'done' | 'expired' | 'ended';

/** A page handed to a person, as any process sharing this home sees it. */
export interface HandoffRecord {
  id: string;
  reason: string;
  tool: string | undefined;
  runId: string | undefined;
  /** Where the process holding the page answers for it (loopback). */
  endpoint: string;
  /** The bearer token that process wants for this handoff; never shown, emptied when it ends. */
  token: string;
  owner: Omit<LeaseOwner, 'heartbeatAt'>;
  startedAt: string;
  deadlineAt: string;
  state: HandoffState;
  endedAt: string | undefined;
}

interface Row {
  id: string;
  reason: string;
  tool: string | null;
  run_id: string | null;
  endpoint: string;
  token: string;
  owner_pid: number;
  owner_host: string;
  owner_started: string | null;
  started_at: string;
  deadline_at: string;
  state: HandoffState;
  ended_at: string | null;
}

function fromRow(row: Row): HandoffRecord {
  return {
    id: row.id,
    reason: row.reason,
    tool: row.tool ?? undefined,
    runId: row.run_id ?? undefined,
    endpoint: row.endpoint,
    token: row.token,
    owner: { pid: row.owner_pid, host: row.owner_host, started: row.owner_started ?? undefined },
    startedAt: row.started_at,
    deadlineAt: row.deadline_at,
    state: row.state,
    endedAt: row.ended_at ?? undefined,
  };
}

/**
 * The handoffs table: the process holding a page records it here with the loopback address
 * and token it answers to, so that a console in any process of the same home can show it.
 */
export class Handoffs {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** Records a page this process now holds for a person. */
  open(entry: {
    id: string;
    reason: string;
    tool?: string | undefined;
    runId?: string | undefined;
    endpoint: string;
    token: string;
    deadlineAt: number;
  }): HandoffRecord {
    const owner = thisProcess();
    this.#db
      .prepare(
        `INSERT INTO handoffs (id, reason, tool, run_id, endpoint, token, owner_pid, owner_host, owner_started, started_at, deadline_at, state)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'waiting')`,
      )
      .run(
        entry.id,
        entry.reason,
        entry.tool ?? null,
        entry.runId ?? null,
        entry.endpoint,
        entry.token,
        owner.pid,
        owner.host,
        owner.started ?? null,
        new Date().toISOString(),
        new Date(entry.deadlineAt).toISOString(),
      );
    return this.get(entry.id)!;
  }

  get(id: string): HandoffRecord | undefined {
    const row = this.#db.prepare<[string], Row>('SELECT * FROM handoffs WHERE id = ?').get(id);
    return row ? fromRow(row) : undefined;
  }

  /** Handoffs a person can take over now, oldest first; those of a process that died are ended here. */
  waiting(): HandoffRecord[] {
    const rows = this.#db
      .prepare<[], Row>("SELECT * FROM handoffs WHERE state = 'waiting' ORDER BY started_at, rowid")
      .all()
      .map(fromRow);
    const live: HandoffRecord[] = [];
    for (const record of rows) {
      if (ownerIsGone({ ...record.owner, heartbeatAt: record.startedAt })) this.end(record.id, 'ended');
      else live.push(record);
    }
    return live;
  }

  /** Ends a waiting handoff (its token with it); false when it was over already. */
  end(id: string, state: Exclude<HandoffState, 'waiting'>): boolean {
    const result = this.#db
      .prepare("UPDATE handoffs SET state = ?, token = '', ended_at = ? WHERE id = ? AND state = 'waiting'")
      .run(state, new Date().toISOString(), id);
    return result.changes === 1;
  }
}
