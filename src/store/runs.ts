import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './database.js';

export interface RunEvent {
  /** ISO time the event happened. */
  t: string;
  type: string;
  duration_ms?: number;
  [key: string]: unknown;
}

export interface RunRecord {
  id: string;
  kind: string;
  title: string;
  startedAt: string;
  endedAt: string | undefined;
  ok: boolean | undefined;
  events: number;
  modelEvents: number;
  file: string;
}

interface RunRow {
  id: string;
  kind: string;
  title: string;
  started_at: string;
  ended_at: string | null;
  ok: number | null;
  events: number;
  model_events: number;
  file: string;
}

/** A model or provider event: what replay must never emit. */
export function isModelEvent(event: { type: string }): boolean {
  return event.type.startsWith('model') || event.type.startsWith('provider');
}

function fromRow(row: RunRow): RunRecord {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    startedAt: row.started_at,
    endedAt: row.ended_at ?? undefined,
    ok: row.ok === null ? undefined : row.ok === 1,
    events: row.events,
    modelEvents: row.model_events,
    file: row.file,
  };
}

/** Run events: one JSONL file per run, indexed in a table. */
export class RunLog {
  readonly #db: Db;
  readonly #folder: string;
  readonly #scrub: (text: string) => string;
  readonly #insert;
  readonly #count;
  readonly #end;
  readonly #record;

  constructor(db: Db, home: string, scrub: (text: string) => string) {
    this.#db = db;
    this.#folder = join(home, 'runs');
    this.#scrub = scrub;
    mkdirSync(this.#folder, { recursive: true });
    this.#insert = db.prepare('INSERT INTO runs (id, kind, title, started_at, file) VALUES (?, ?, ?, ?, ?)');
    this.#count = db.prepare(
      'UPDATE runs SET events = events + ?, model_events = model_events + ? WHERE id = ?',
    );
    this.#end = db.prepare('UPDATE runs SET ended_at = ?, ok = ? WHERE id = ?');
    this.#record = db.prepare(
      'INSERT INTO runs (id, kind, title, started_at, ended_at, ok, events, model_events, file) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
  }

  /** A fresh run id, not yet recorded (see `record` for one-shot runs). */
  newId(): string {
    return `run_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  }

  start(kind: string, title: string): string {
    const id = this.newId();
    this.#insert.run(id, kind, this.#scrub(title), new Date().toISOString(), join(this.#folder, `${id}.jsonl`));
    return id;
  }

  /** Records a whole run at once (one call of one tool): one file write and one row. */
  record(runId: string, kind: string, title: string, events: RunEvent[], ok: boolean): void {
    const file = join(this.#folder, `${runId}.jsonl`);
    const text = events.map((event) => this.#scrub(JSON.stringify(event))).join('\n');
    appendFileSync(file, `${text}\n`);
    this.#record.run(
      runId,
      kind,
      this.#scrub(title),
      events[0]?.t ?? new Date().toISOString(),
      new Date().toISOString(),
      ok ? 1 : 0,
      events.length,
      events.filter(isModelEvent).length,
      file,
    );
  }

  /** Appends events in one write; every value is scrubbed of secrets first. */
  append(runId: string, events: RunEvent[]): void {
    if (events.length === 0) return;
    const text = events.map((event) => this.#scrub(JSON.stringify(event))).join('\n');
    appendFileSync(join(this.#folder, `${runId}.jsonl`), `${text}\n`);
    const modelEvents = events.filter(isModelEvent).length;
    this.#count.run(events.length, modelEvents, runId);
  }

  end(runId: string, ok: boolean): void {
    this.#end.run(new Date().toISOString(), ok ? 1 : 0, runId);
  }

  get(runId: string): RunRecord | undefined {
    const row = this.#db.prepare<[string], RunRow>('SELECT * FROM runs WHERE id = ?').get(runId);
    return row ? fromRow(row) : undefined;
  }

  list(limit = 20): RunRecord[] {
    return this.#db
      .prepare<[number], RunRow>('SELECT * FROM runs ORDER BY started_at DESC, rowid DESC LIMIT ?')
      .all(limit)
      .map(fromRow);
  }

  events(runId: string): RunEvent[] {
    const file = join(this.#folder, `${runId}.jsonl`);
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as RunEvent);
  }
}
