import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../contract/paths.js';
import { CallBatches } from './call-batches.js';
import type { Db } from './database.js';
import { okColumn, type RunEnding, type RunRecord, type RunRecords } from './records.js';
import { isModelEvent, type RunEvent, readEvent } from './run-event.js';
import type { Scrubber } from './secrets.js';

export type { RunRecord } from './records.js';
export { isModelEvent, type RunEvent, readEvent } from './run-event.js';

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
    file: row.file,
  };
}

const COLUMNS = 'id, kind, title, started_at, ended_at, ok, events, model_events, file';
// A flush costs a commit (about 0.1 ms here) whatever it holds, so it waits for a batch.
const FLUSH_AFTER_MS = 50;
const FLUSH_AT_ROWS = 512;
const CACHED_BATCHES = 8;
const ID_PREFIX = randomBytes(3).toString('hex');
let idCounter = 0;
let idMs = 0;
let idTime = '';

/** A fresh run id: the time, this process's random prefix and a counter, so ids sort by start. */
export function newRunId(): string {
  idCounter = (idCounter + 1) % 0x1000000;
  const ms = Date.now();
  if (ms !== idMs) {
    idMs = ms;
    idTime = `run_${ms.toString(36)}_${ID_PREFIX}`;
  }
  return `${idTime}${idCounter.toString(16).padStart(6, '0')}`;
}

/** Open logs, flushed when the process exits without closing them. */
const openLogs = new Set<RunLog>();
process.once('exit', () => {
  for (const log of openLogs) log.flushSync();
});

interface FinishedCall {
  runId: string;
  kind: string;
  title: string;
  events: RunEvent[];
  ok: RunEnding;
}

/**
 * Run events: JSONL files indexed in the database. A long run (agent, discovery, replay)
 * has a file and a `runs` row of its own; single calls share a segment file per log and
 * are indexed a batch at a time (`call-batches.ts`). Reads see both as one list.
 *
 * Writes are batched: within 50 ms or every 512 runs, and at once before any read, on
 * close and at exit. The ledger and approvals, which decide whether a write may happen,
 * are never batched; a kill -9 can lose at most the last 50 milliseconds of events.
 */
export class RunLog implements RunRecords {
  readonly #db: Db;
  readonly #folder: string;
  readonly #secrets: Scrubber;
  readonly #calls: CallBatches;
  readonly #insert;
  readonly #count;
  readonly #end;
  readonly #get;
  readonly #getCall;
  readonly #list;
  readonly #ids;
  #rows: Array<() => void> = [];
  #texts = new Map<string, string[]>();
  #timer: NodeJS.Timeout | undefined;
  #deferred: FinishedCall[] = [];
  #immediate: NodeJS.Immediate | undefined;
  /** Batches read lately, by file and offset: reading every call of a log asks for each batch once. */
  #batches = new Map<string, string>();

  constructor(db: Db, home: string, secrets: Scrubber) {
    this.#db = db;
    this.#folder = join(home, 'runs');
    this.#secrets = secrets;
    mkdirSync(this.#folder, { recursive: true, mode: PRIVATE_DIR_MODE });
    this.#calls = new CallBatches(db, this.#folder, secrets);
    this.#insert = db.prepare('INSERT INTO runs (id, kind, title, started_at, file) VALUES (?, ?, ?, ?, ?)');
    this.#count = db.prepare(
      'UPDATE runs SET events = events + ?, model_events = model_events + ? WHERE id = ?',
    );
    this.#end = db.prepare('UPDATE runs SET ended_at = ?, ok = ? WHERE id = ?');
    this.#get = db.prepare<{ id: string }, RunRow>(`SELECT ${COLUMNS} FROM runs WHERE id = @id`);
    // A batch's id range narrows the search to the batches that can hold the call.
    this.#getCall = db.prepare<{ id: string }, RunRow & { byte_offset: number; byte_length: number }>(
      `SELECT ${COLUMNS}, byte_offset, byte_length FROM call_runs
       WHERE last_id >= @id AND first_id <= @id AND id = @id`,
    );
    // Batches whose latest call started before the limit-th latest batch began cannot hold
    // any of the `limit` latest calls, so they are not unpacked.
    this.#list = db.prepare<{ limit: number }, RunRow>(
      `SELECT ${COLUMNS} FROM runs
       UNION ALL
       SELECT ${COLUMNS} FROM call_runs
       WHERE batch_last_start >= coalesce(
         (SELECT first_started_at FROM call_batches ORDER BY first_started_at DESC LIMIT 1 OFFSET @limit - 1), '')
       ORDER BY started_at DESC, id DESC LIMIT @limit`,
    );
    this.#ids = db.prepare<{ since: string }, { id: string }>(
      `SELECT id, started_at FROM runs WHERE started_at >= @since
       UNION ALL
       SELECT id, started_at FROM call_runs WHERE batch_last_start >= @since AND started_at >= @since
       ORDER BY started_at, id`,
    );
    openLogs.add(this);
  }

  /** A fresh run id, not yet recorded (see `record` for one-shot runs). */
  newId(): string {
    return newRunId();
  }

  start(kind: string, title: string): string {
    const id = this.newId();
    // A long run is visible to other processes from its start.
    this.flushSync();
    this.#insert.run(id, kind, this.#secrets.scrub(title), new Date().toISOString(), this.#file(id));
    return id;
  }

  /** Appends events to a run started with `start`; every value is scrubbed of secrets first. */
  append(runId: string, events: RunEvent[]): void {
    if (events.length === 0) return;
    const file = this.#file(runId);
    const lines = this.#texts.get(file) ?? [];
    for (const event of events) lines.push(`${this.#secrets.scrubbedJson(event)}\n`);
    this.#texts.set(file, lines);
    const modelEvents = events.filter(isModelEvent).length;
    this.#rows.push(() => this.#count.run(events.length, modelEvents, runId));
    this.#schedule();
  }

  end(runId: string, ok: RunEnding): void {
    const endedAt = new Date().toISOString();
    this.#rows.push(() => this.#end.run(endedAt, okColumn(ok), runId));
    this.flushSync();
  }

  /**
   * Records a whole run at once (one call of one tool). Its lines are built just after the
   * current turn of the event loop, once the caller's answer has gone out (an MCP response
   * is written before then), and always before any read.
   */
  record(runId: string, kind: string, title: string, events: RunEvent[], ok: RunEnding): void {
    this.#deferred.push({ runId, kind, title, events, ok });
    // A caller that never yields to the event loop still sees bounded memory.
    if (this.#deferred.length >= FLUSH_AT_ROWS) {
      this.flushSync();
      return;
    }
    if (!this.#immediate) {
      this.#immediate = setImmediate(() => {
        this.#takeDeferred();
        this.#schedule();
      });
      this.#immediate.unref();
    }
  }

  get(runId: string): RunRecord | undefined {
    this.flushSync();
    const row = this.#get.get({ id: runId }) ?? this.#getCall.get({ id: runId });
    return row ? fromRow(row) : undefined;
  }

  list(limit = 20): RunRecord[] {
    this.flushSync();
    return this.#list.all({ limit: Math.max(1, Math.floor(limit)) }).map(fromRow);
  }

  /** Ids of the runs started at or after `since` (ISO time), oldest first. */
  ids(since = ''): string[] {
    this.flushSync();
    return this.#ids.all({ since }).map((row) => row.id);
  }

  events(runId: string): RunEvent[] {
    this.flushSync();
    const row = this.#get.get({ id: runId });
    const call = row ? undefined : this.#getCall.get({ id: runId });
    if (call)
      return callEvents(this.#batchText(this.#located(call.file), call.byte_offset, call.byte_length), runId);
    const file = this.#located(row?.file ?? this.#file(runId));
    if (!existsSync(file)) return [];
    const text = readFileSync(file, 'utf8');
    // Single calls recorded before batches had a row each, pointing at their whole segment.
    if (basename(file).startsWith('calls-')) return callEvents(text, runId);
    return text
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => readEvent(JSON.parse(line) as RunEvent));
  }

  flush(): void {
    this.flushSync();
  }

  /** Writes everything queued, now, on this thread. */
  flushSync(): void {
    this.#takeDeferred();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const rows = this.#rows;
    const texts = this.#texts;
    this.#rows = [];
    this.#texts = new Map();
    // Lines before rows: a row never names lines that are not written yet.
    for (const [file, lines] of texts) appendFileSync(file, lines.join(''), { mode: PRIVATE_FILE_MODE });
    const indexCalls = this.#calls.write();
    if (indexCalls) rows.push(indexCalls);
    if (rows.length === 0) return;
    this.#db.transaction(() => {
      for (const write of rows) write();
    })();
  }

  close(): void {
    openLogs.delete(this);
    this.flushSync();
    this.#calls.close();
  }

  #file(runId: string): string {
    return join(this.#folder, `${runId}.jsonl`);
  }

  /**
   * The log file the index names, or the one of that name in this home's runs folder: the
   * index holds absolute paths, and a home that was moved or copied keeps its log.
   */
  #located(file: string): string {
    if (existsSync(file)) return file;
    const here = join(this.#folder, basename(file));
    return existsSync(here) ? here : file;
  }

  #batchText(file: string, offset: number, length: number): string {
    const key = `${offset} ${file}`;
    let text = this.#batches.get(key);
    if (text === undefined) {
      text = readRange(file, offset, length);
      this.#batches.set(key, text);
      if (this.#batches.size > CACHED_BATCHES)
        this.#batches.delete(this.#batches.keys().next().value as string);
    }
    return text;
  }

  #takeDeferred(): void {
    if (this.#immediate) clearImmediate(this.#immediate);
    this.#immediate = undefined;
    for (const { runId, kind, title, events, ok } of this.#deferred)
      this.#calls.add(runId, kind, title, events, ok);
    this.#deferred = [];
  }

  #schedule(): void {
    if (this.#rows.length + this.#calls.pending >= FLUSH_AT_ROWS) {
      this.flushSync();
      return;
    }
    if (!this.#timer) {
      this.#timer = setTimeout(() => this.flushSync(), FLUSH_AFTER_MS);
      this.#timer.unref();
    }
  }
}

function readRange(file: string, offset: number, length: number): string {
  const buffer = Buffer.alloc(length);
  const fd = openSync(file, 'r');
  try {
    for (let read = 0; read < length; ) {
      const got = readSync(fd, buffer, read, length - read, offset + read);
      if (got === 0) break;
      read += got;
    }
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

/** The events of one call in a segment: a line per call, or a line per event before batches. */
function callEvents(text: string, runId: string): RunEvent[] {
  const events: RunEvent[] = [];
  const tag = `{"run":${JSON.stringify(runId)},`;
  for (const line of text.split('\n')) {
    if (!line.startsWith(tag)) continue;
    const {
      run: _run,
      events: batched,
      ...event
    } = JSON.parse(line) as RunEvent & {
      run: string;
      events?: RunEvent[];
    };
    if (batched) return batched.map(readEvent);
    events.push(readEvent(event));
  }
  return events;
}
