import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../contract/paths.js';
import { ByteBuffer } from './byte-buffer.js';
import type { Db } from './database.js';
import { okColumn, type RunEnding } from './records.js';
import { isModelEvent, type RunEvent } from './run-event.js';
import type { Scrubber } from './secrets.js';

/**
 * Single calls (one call of one tool), written a batch at a time. Their events go to one
 * segment file per log, a line per call naming its run; each batch adds one row that lists
 * its calls (a JSON array of [id, kind, title, started_at, ended_at, ok, events,
 * model_events]) and where their lines sit in the file. A row per call cost more than a
 * no-op call.
 */
export class CallBatches {
  readonly #folder: string;
  readonly #secrets: Scrubber;
  readonly #insert;
  /** Tells this log's segment from another log's in the same process and millisecond. */
  readonly #tag = randomBytes(4).toString('hex');
  #segment: string | undefined;
  /** The segment stays open for appends while the log is: opening it per flush cost more than the write. */
  #fd: number | undefined;
  #size = 0;
  readonly #lines = new ByteBuffer();
  readonly #entries = new ByteBuffer();
  #pending = 0;
  #firstId = '';
  #lastId = '';
  #firstStart = '';
  #lastStart = '';

  constructor(db: Db, folder: string, secrets: Scrubber) {
    this.#folder = folder;
    this.#secrets = secrets;
    this.#insert = db.prepare(
      `INSERT INTO call_batches
         (file, byte_offset, byte_length, first_id, last_id, first_started_at, last_started_at, calls)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  get pending(): number {
    return this.#pending;
  }

  /** Queues a finished call, scrubbed of secrets. */
  add(runId: string, kind: string, title: string, events: RunEvent[], ok: RunEnding): void {
    const id = JSON.stringify(runId);
    this.#lines.append(`{"run":${id},"events":${this.#secrets.scrubbedJson(events)}}\n`);
    const startedAt = events[0]?.t ?? new Date().toISOString();
    const endedAt = events.at(-1)?.t ?? startedAt;
    let modelEvents = 0;
    for (const event of events) if (isModelEvent(event)) modelEvents++;
    // Every string through JSON.stringify: one malformed entry would hide its whole batch.
    const entry = `[${id},${JSON.stringify(kind)},${JSON.stringify(this.#secrets.scrub(title))},${JSON.stringify(startedAt)},${JSON.stringify(endedAt)},${okColumn(ok)},${events.length},${modelEvents}]`;
    this.#entries.append(this.#pending === 0 ? entry : `,${entry}`);
    if (this.#pending === 0 || runId < this.#firstId) this.#firstId = runId;
    if (this.#pending === 0 || runId > this.#lastId) this.#lastId = runId;
    if (this.#pending === 0 || startedAt < this.#firstStart) this.#firstStart = startedAt;
    if (this.#pending === 0 || startedAt > this.#lastStart) this.#lastStart = startedAt;
    this.#pending++;
  }

  /**
   * Appends the queued lines to the segment and returns the statement that indexes them,
   * to run in the caller's transaction.
   */
  write(): (() => void) | undefined {
    if (this.#pending === 0) return undefined;
    const file = this.#open();
    const offset = this.#size;
    const bytes = this.#lines.view();
    for (let written = 0; written < bytes.length; )
      written += writeSync(this.#fd as number, bytes, written, bytes.length - written);
    this.#size += bytes.length;
    const values = [
      file,
      offset,
      bytes.length,
      this.#firstId,
      this.#lastId,
      this.#firstStart,
      this.#lastStart,
      `[${this.#entries.view().toString('utf8')}]`,
    ] as const;
    this.#lines.clear();
    this.#entries.clear();
    this.#pending = 0;
    return () => this.#insert.run(...values);
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #open(): string {
    this.#segment ??= join(
      this.#folder,
      `calls-${Date.now().toString(36)}-${process.pid}-${this.#tag}.jsonl`,
    );
    if (this.#fd === undefined) {
      this.#fd = openSync(this.#segment, 'a', PRIVATE_FILE_MODE);
      this.#size = fstatSync(this.#fd).size;
    }
    return this.#segment;
  }
}
