import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

type RunRowValues = [string, string, string, string, string | null, number | null, number, number, string];

const FLUSH_AFTER_MS = 10;
const FLUSH_AT_ROWS = 256;
const ID_PREFIX = randomBytes(3).toString('hex');
let idCounter = 0;

/** Open logs, flushed when the process exits without closing them. */
const openLogs = new Set<RunLog>();
process.once('exit', () => {
  for (const log of openLogs) log.flushSync();
});

/**
 * Run events: one JSONL file per run, indexed in a table.
 *
 * Writes are batched: rows go in one transaction, with their files, within 10 ms or every
 * 256 runs, and at once before any read, on close and at exit. The ledger and approvals,
 * which decide whether a write may happen, are never batched; a kill -9 can lose at most
 * the last few milliseconds of events.
 */
export class RunLog {
  readonly #db: Db;
  readonly #folder: string;
  readonly #scrub: (text: string) => string;
  readonly #insert;
  readonly #count;
  readonly #end;
  readonly #record;
  #rows: Array<() => void> = [];
  #texts = new Map<string, string[]>();
  /** Whole files of one-shot runs, queued. */
  readonly #wholeFiles = new Map<string, string>();
  #timer: NodeJS.Timeout | undefined;

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
    openLogs.add(this);
  }

  /** A fresh run id, not yet recorded (see `record` for one-shot runs). */
  newId(): string {
    idCounter = (idCounter + 1) % 0x1000000;
    return `run_${Date.now().toString(36)}_${ID_PREFIX}${idCounter.toString(16).padStart(6, '0')}`;
  }

  start(kind: string, title: string): string {
    const id = this.newId();
    const values: RunRowValues = [
      id,
      kind,
      this.#scrub(title),
      new Date().toISOString(),
      null,
      null,
      0,
      0,
      this.#file(id),
    ];
    // A long run is visible to other processes from its start.
    this.flushSync();
    this.#insert.run(values[0], values[1], values[2], values[3], values[8]);
    return id;
  }

  /** Appends events to a run started with `start`; every value is scrubbed of secrets first. */
  append(runId: string, events: RunEvent[]): void {
    if (events.length === 0) return;
    this.#queueText(runId, events);
    const modelEvents = events.filter(isModelEvent).length;
    this.#rows.push(() => this.#count.run(events.length, modelEvents, runId));
    this.#schedule();
  }

  end(runId: string, ok: boolean): void {
    const endedAt = new Date().toISOString();
    this.#rows.push(() => this.#end.run(endedAt, ok ? 1 : 0, runId));
    this.flushSync();
  }

  /** Records a whole run at once (one call of one tool): one file and one row. */
  record(runId: string, kind: string, title: string, events: RunEvent[], ok: boolean): void {
    const file = this.#file(runId);
    this.#wholeFiles.set(file, events.map((event) => `${this.#scrub(JSON.stringify(event))}\n`).join(''));
    const values: RunRowValues = [
      runId,
      kind,
      this.#scrub(title),
      events[0]?.t ?? new Date().toISOString(),
      new Date().toISOString(),
      ok ? 1 : 0,
      events.length,
      events.filter(isModelEvent).length,
      file,
    ];
    this.#rows.push(() => this.#record.run(...values));
    this.#schedule();
  }

  get(runId: string): RunRecord | undefined {
    this.flushSync();
    const row = this.#db.prepare<[string], RunRow>('SELECT * FROM runs WHERE id = ?').get(runId);
    return row ? fromRow(row) : undefined;
  }

  list(limit = 20): RunRecord[] {
    this.flushSync();
    return this.#db
      .prepare<[number], RunRow>('SELECT * FROM runs ORDER BY started_at DESC, rowid DESC LIMIT ?')
      .all(limit)
      .map(fromRow);
  }

  /** Ids of the runs started at or after `since` (ISO time), oldest first. */
  ids(since = ''): string[] {
    this.flushSync();
    return this.#db
      .prepare<[string], { id: string }>(
        'SELECT id FROM runs WHERE started_at >= ? ORDER BY started_at, rowid',
      )
      .all(since)
      .map((row) => row.id);
  }

  events(runId: string): RunEvent[] {
    this.flushSync();
    const file = this.#file(runId);
    const text = this.#wholeFiles.get(file) ?? (existsSync(file) ? readFileSync(file, 'utf8') : '');
    return text
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as RunEvent);
  }

  /** Writes everything queued, now, on this thread. */
  flushSync(): void {
    const { rows, texts } = this.#take();
    if (rows.length > 0) {
      this.#db.transaction(() => {
        for (const write of rows) write();
      })();
    }
    for (const [file, lines] of texts) appendFileSync(file, lines.join(''));
    for (const [file, text] of this.#wholeFiles) writeFileSync(file, text);
    this.#wholeFiles.clear();
  }

  close(): void {
    openLogs.delete(this);
    this.flushSync();
  }

  #file(runId: string): string {
    return join(this.#folder, `${runId}.jsonl`);
  }

  #queueText(runId: string, events: RunEvent[]): void {
    const file = this.#file(runId);
    const lines = this.#texts.get(file) ?? [];
    for (const event of events) lines.push(`${this.#scrub(JSON.stringify(event))}\n`);
    this.#texts.set(file, lines);
  }

  #take(): { rows: Array<() => void>; texts: Map<string, string[]> } {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const taken = { rows: this.#rows, texts: this.#texts };
    this.#rows = [];
    this.#texts = new Map();
    return taken;
  }

  #schedule(): void {
    if (this.#rows.length >= FLUSH_AT_ROWS) {
      this.#flushSoon();
      return;
    }
    if (!this.#timer) {
      this.#timer = setTimeout(() => this.#flushSoon(), FLUSH_AFTER_MS);
      this.#timer.unref();
    }
  }

  /** Rows in one transaction, then the files, in order. */
  #flushSoon(): void {
    this.flushSync();
  }
}
