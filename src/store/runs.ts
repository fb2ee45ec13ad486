import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, join } from 'node:path';
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
 * Run events: JSONL files indexed in a table. A long run (agent, discovery, replay) has a
 * file of its own; single calls share one segment file per log, each line naming its run.
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
  /**
   * One-shot runs (a single call) share one segment file per log, each line tagged with its
   * run id: creating a file per call cost more than the call itself.
   */
  #segment: string | undefined;
  /** The segment stays open for appends while the log is: opening it per flush cost more than the write. */
  #segmentFd: number | undefined;
  #segmentCache: { file: string; size: number; byRun: Map<string, RunEvent[]> } | undefined;
  #timer: NodeJS.Timeout | undefined;
  #deferred: Array<{ runId: string; kind: string; title: string; events: RunEvent[]; ok: boolean }> = [];
  #immediate: NodeJS.Immediate | undefined;

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
    // A long run is visible to other processes from its start.
    this.flushSync();
    this.#insert.run(id, kind, this.#scrub(title), new Date().toISOString(), this.#file(id));
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

  /**
   * Records a whole run at once (one call of one tool): lines in the segment file and one row.
   * The work is done just after the current turn of the event loop, once the caller's answer
   * has gone out (an MCP response is written before then), and always before any read.
   */
  record(runId: string, kind: string, title: string, events: RunEvent[], ok: boolean): void {
    this.#deferred.push({ runId, kind, title, events, ok });
    // A caller that never yields to the event loop still sees bounded memory.
    if (this.#deferred.length >= FLUSH_AT_ROWS) {
      this.#recordDeferred();
      return;
    }
    if (!this.#immediate) {
      this.#immediate = setImmediate(() => this.#recordDeferred());
      this.#immediate.unref();
    }
  }

  #recordDeferred(): void {
    if (this.#immediate) clearImmediate(this.#immediate);
    this.#immediate = undefined;
    for (const { runId, kind, title, events, ok } of this.#deferred.splice(0)) {
      this.#recordNow(runId, kind, title, events, ok);
    }
  }

  #recordNow(runId: string, kind: string, title: string, events: RunEvent[], ok: boolean): void {
    this.#segment ??= join(
      this.#folder,
      `calls-${Date.now().toString(36)}-${process.pid}-${ID_PREFIX}.jsonl`,
    );
    const lines = this.#texts.get(this.#segment) ?? [];
    // Scrubbed when written, one pass per batch (see flushSync).
    const run = `{"run":${JSON.stringify(runId)},`;
    for (const event of events) lines.push(`${run}${JSON.stringify(event).slice(1)}\n`);
    this.#texts.set(this.#segment, lines);
    const values: RunRowValues = [
      runId,
      kind,
      this.#scrub(title),
      events[0]?.t ?? new Date().toISOString(),
      events.at(-1)?.t ?? new Date().toISOString(),
      ok ? 1 : 0,
      events.length,
      events.filter(isModelEvent).length,
      this.#segment,
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
    const row = this.#db.prepare<[string], { file: string }>('SELECT file FROM runs WHERE id = ?').get(runId);
    const file = row?.file ?? this.#file(runId);
    if (!existsSync(file)) return [];
    if (basename(file).startsWith('calls-')) return this.#segmentEvents(file).get(runId) ?? [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as RunEvent);
  }

  /** A segment's events grouped by run, parsed once for as long as the file does not grow. */
  #segmentEvents(file: string): Map<string, RunEvent[]> {
    const size = statSync(file).size;
    if (this.#segmentCache?.file === file && this.#segmentCache.size === size)
      return this.#segmentCache.byRun;
    const byRun = new Map<string, RunEvent[]>();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.length === 0) continue;
      const { run, ...event } = JSON.parse(line) as RunEvent & { run: string };
      const events = byRun.get(run) ?? [];
      events.push(event);
      byRun.set(run, events);
    }
    this.#segmentCache = { file, size, byRun };
    return byRun;
  }

  /** Writes everything queued, now, on this thread. */
  flushSync(): void {
    this.#recordDeferred();
    const { rows, texts } = this.#take();
    if (rows.length > 0) {
      this.#db.transaction(() => {
        for (const write of rows) write();
      })();
    }
    // Every value is scrubbed of secrets here, on its way to the file.
    for (const [file, lines] of texts) {
      const text = this.#scrub(lines.join(''));
      if (file !== this.#segment) {
        appendFileSync(file, text);
        continue;
      }
      this.#segmentFd ??= openSync(file, 'a');
      writeSync(this.#segmentFd, text);
    }
  }

  close(): void {
    openLogs.delete(this);
    this.flushSync();
    if (this.#segmentFd !== undefined) closeSync(this.#segmentFd);
    this.#segmentFd = undefined;
  }

  #file(runId: string): string {
    return join(this.#folder, `${runId}.jsonl`);
  }

  #queueText(runId: string, events: RunEvent[]): void {
    const file = this.#file(runId);
    const lines = this.#texts.get(file) ?? [];
    for (const event of events) lines.push(`${JSON.stringify(event)}\n`);
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
      this.flushSync();
      return;
    }
    if (!this.#timer) {
      this.#timer = setTimeout(() => this.flushSync(), FLUSH_AFTER_MS);
      this.#timer.unref();
    }
  }
}
