import type pg from 'pg';
import { okColumn, type RunEnding, type RunRecord, type RunRecords } from '../records.js';
import { isModelEvent, type RunEvent, readEvent } from '../run-event.js';
import { newRunId } from '../runs.js';
import type { Scrubber } from '../secrets.js';
import { retrying, transaction } from './connection.js';

interface RunRow {
  id: string;
  kind: string;
  title: string;
  started_at: string;
  ended_at: string | null;
  ok: number | null;
  events: number;
  model_events: number;
}

function fromRow(row: RunRow): RunRecord {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    startedAt: row.started_at,
    endedAt: row.ended_at ?? undefined,
    ok: row.ok === null ? undefined : row.ok === 1,
    held: row.ok === 2,
    events: row.events,
    modelEvents: row.model_events,
    file: `postgres:${row.id}`,
  };
}

const FLUSH_AFTER_MS = 50;

/** What one flush writes, in one transaction: new runs, their events, counts and ends. */
class Batch {
  readonly runs: RunRow[] = [];
  readonly eventRuns: string[] = [];
  readonly eventTexts: string[] = [];
  readonly counts = new Map<string, { events: number; model: number }>();
  readonly ends = new Map<string, { at: string; ok: number }>();

  get empty(): boolean {
    return (
      this.runs.length === 0 && this.eventTexts.length === 0 && this.counts.size === 0 && this.ends.size === 0
    );
  }
}

/**
 * Run events and their index in the shared store. As in the embedded log, writes are
 * queued and flushed together within 50 ms (one transaction, whatever it holds); a flush the
 * server could not take (a restart) is kept and tried again, so nothing is lost but the last
 * moments of a killed process.
 */
export class PostgresRunLog implements RunRecords {
  readonly #pool: pg.Pool;
  readonly #secrets: Scrubber;
  #batch = new Batch();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(pool: pg.Pool, secrets: Scrubber) {
    this.#pool = pool;
    this.#secrets = secrets;
  }

  newId(): string {
    return newRunId();
  }

  start(kind: string, title: string): string {
    const id = newRunId();
    this.#batch.runs.push(this.#row(id, kind, title, new Date().toISOString(), null, null, 0, 0));
    this.#schedule();
    return id;
  }

  append(runId: string, events: RunEvent[]): void {
    if (events.length === 0) return;
    for (const event of events) {
      this.#batch.eventRuns.push(runId);
      this.#batch.eventTexts.push(this.#secrets.scrubbedJson(event));
    }
    const count = this.#batch.counts.get(runId) ?? { events: 0, model: 0 };
    count.events += events.length;
    count.model += events.filter(isModelEvent).length;
    this.#batch.counts.set(runId, count);
    this.#schedule();
  }

  end(runId: string, ok: RunEnding): void {
    this.#batch.ends.set(runId, { at: new Date().toISOString(), ok: okColumn(ok) });
    this.#schedule();
  }

  record(runId: string, kind: string, title: string, events: RunEvent[], ok: RunEnding): void {
    const startedAt = events[0]?.t ?? new Date().toISOString();
    const endedAt = events.at(-1)?.t ?? startedAt;
    const model = events.filter(isModelEvent).length;
    this.#batch.runs.push(
      this.#row(runId, kind, title, startedAt, endedAt, okColumn(ok), events.length, model),
    );
    for (const event of events) {
      this.#batch.eventRuns.push(runId);
      this.#batch.eventTexts.push(this.#secrets.scrubbedJson(event));
    }
    this.#schedule();
  }

  /** Writes everything queued; resolves once it is in the database. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flushing = this.#flushing.then(() => this.#write());
    return this.#flushing;
  }

  async get(runId: string): Promise<RunRecord | undefined> {
    await this.flush();
    const { rows } = await retrying(() =>
      this.#pool.query<RunRow>('SELECT * FROM lift_runs WHERE id = $1', [runId]),
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async list(limit = 20): Promise<RunRecord[]> {
    await this.flush();
    const { rows } = await retrying(() =>
      this.#pool.query<RunRow>('SELECT * FROM lift_runs ORDER BY started_at DESC, id DESC LIMIT $1', [
        Math.max(1, Math.floor(limit)),
      ]),
    );
    return rows.map(fromRow);
  }

  async ids(since = ''): Promise<string[]> {
    await this.flush();
    const { rows } = await retrying(() =>
      this.#pool.query<{ id: string }>(
        'SELECT id FROM lift_runs WHERE started_at >= $1 ORDER BY started_at, id',
        [since],
      ),
    );
    return rows.map((row) => row.id);
  }

  async events(runId: string): Promise<RunEvent[]> {
    await this.flush();
    const { rows } = await retrying(() =>
      this.#pool.query<{ event: string }>(
        'SELECT event FROM lift_run_events WHERE run_id = $1 ORDER BY seq',
        [runId],
      ),
    );
    return rows.map((row) => readEvent(JSON.parse(row.event) as RunEvent));
  }

  #row(
    id: string,
    kind: string,
    title: string,
    startedAt: string,
    endedAt: string | null,
    ok: number | null,
    events: number,
    model: number,
  ): RunRow {
    return {
      id,
      kind,
      title: this.#secrets.scrub(title),
      started_at: startedAt,
      ended_at: endedAt,
      ok,
      events,
      model_events: model,
    };
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.flush().catch(() => this.#schedule());
    }, FLUSH_AFTER_MS);
    this.#timer.unref();
  }

  async #write(): Promise<void> {
    const batch = this.#batch;
    if (batch.empty) return;
    this.#batch = new Batch();
    try {
      await transaction(this.#pool, async (sql) => {
        const runs = batch.runs;
        if (runs.length > 0)
          await sql.query(
            `INSERT INTO lift_runs (id, kind, title, started_at, ended_at, ok, events, model_events)
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[])
             ON CONFLICT (id) DO NOTHING`,
            [
              runs.map((run) => run.id),
              runs.map((run) => run.kind),
              runs.map((run) => run.title),
              runs.map((run) => run.started_at),
              runs.map((run) => run.ended_at),
              runs.map((run) => run.ok),
              runs.map((run) => run.events),
              runs.map((run) => run.model_events),
            ],
          );
        if (batch.eventTexts.length > 0)
          await sql.query(
            'INSERT INTO lift_run_events (run_id, event) SELECT * FROM unnest($1::text[], $2::text[])',
            [batch.eventRuns, batch.eventTexts],
          );
        for (const [id, count] of batch.counts)
          await sql.query(
            'UPDATE lift_runs SET events = events + $2, model_events = model_events + $3 WHERE id = $1',
            [id, count.events, count.model],
          );
        for (const [id, end] of batch.ends)
          await sql.query('UPDATE lift_runs SET ended_at = $2, ok = $3 WHERE id = $1', [id, end.at, end.ok]);
      });
    } catch (error) {
      // Kept for the next flush, in front of what came since.
      this.#requeue(batch);
      throw error;
    }
  }

  #requeue(batch: Batch): void {
    const later = this.#batch;
    this.#batch = batch;
    batch.runs.push(...later.runs);
    batch.eventRuns.push(...later.eventRuns);
    batch.eventTexts.push(...later.eventTexts);
    for (const [id, count] of later.counts) {
      const mine = batch.counts.get(id) ?? { events: 0, model: 0 };
      batch.counts.set(id, { events: mine.events + count.events, model: mine.model + count.model });
    }
    for (const [id, end] of later.ends) batch.ends.set(id, end);
  }
}
