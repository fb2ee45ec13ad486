import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../contract/paths.js';

export type Db = Database.Database;

const MIGRATIONS: string[] = [
  `CREATE TABLE IF NOT EXISTS ledger (
     tool TEXT NOT NULL,
     request_id TEXT NOT NULL,
     state TEXT NOT NULL,            -- in_flight | done | unknown
     input_hash TEXT NOT NULL,
     envelope TEXT,
     pid INTEGER,
     started_at TEXT NOT NULL,
     finished_at TEXT,
     PRIMARY KEY (tool, request_id)
   )`,
  `CREATE TABLE IF NOT EXISTS approvals (
     id TEXT PRIMARY KEY,
     tool TEXT NOT NULL,
     input TEXT NOT NULL,
     request_id TEXT,
     gate TEXT NOT NULL,
     preview TEXT NOT NULL,
     phrase TEXT,
     state TEXT NOT NULL,            -- pending | approved | executed | denied
     envelope TEXT,
     created_at TEXT NOT NULL,
     decided_at TEXT,
     decided_by TEXT
   )`,
  `CREATE INDEX IF NOT EXISTS approvals_by_request ON approvals (tool, request_id)`,
  `CREATE TABLE IF NOT EXISTS runs (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,             -- call | agent | replay | discovery | ...
     title TEXT NOT NULL,
     started_at TEXT NOT NULL,
     ended_at TEXT,
     ok INTEGER,
     events INTEGER NOT NULL DEFAULT 0,
     model_events INTEGER NOT NULL DEFAULT 0,
     file TEXT NOT NULL
   )`,
  // Single calls are indexed a flush at a time: one row per batch, the calls as a JSON array.
  `CREATE TABLE IF NOT EXISTS call_batches (
     id INTEGER PRIMARY KEY,
     file TEXT NOT NULL,             -- the segment file holding the batch's event lines
     byte_offset INTEGER NOT NULL,   -- where those lines start in it
     byte_length INTEGER NOT NULL,
     first_id TEXT NOT NULL,         -- smallest and largest run id in the batch
     last_id TEXT NOT NULL,
     first_started_at TEXT NOT NULL, -- earliest and latest start in the batch
     last_started_at TEXT NOT NULL,
     calls TEXT NOT NULL             -- [[id, kind, title, started_at, ended_at, ok, events, model_events], ...]
   )`,
  // Finding one call by id is what happens per call; lists scan the batches (one row per flush),
  // and every further index would cost each flush more than it saves those scans.
  `CREATE INDEX IF NOT EXISTS call_batches_by_last_id ON call_batches (last_id)`,
  `CREATE VIEW IF NOT EXISTS call_runs AS
     SELECT call.value ->> 0 AS id, call.value ->> 1 AS kind, call.value ->> 2 AS title,
            call.value ->> 3 AS started_at, call.value ->> 4 AS ended_at, call.value ->> 5 AS ok,
            call.value ->> 6 AS events, call.value ->> 7 AS model_events, batch.file AS file,
            batch.byte_offset, batch.byte_length,
            batch.first_id, batch.last_id, batch.last_started_at AS batch_last_start
     FROM call_batches AS batch, json_each(batch.calls) AS call`,
  `CREATE TABLE IF NOT EXISTS kv (
     namespace TEXT NOT NULL,
     key TEXT NOT NULL,
     value TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (namespace, key)
   )`,
];

/** Opens (and creates) Lift's embedded database in `home`, in WAL mode so a kill -9 loses nothing committed. */
export function openDatabase(home: string): Db {
  mkdirSync(home, { recursive: true, mode: PRIVATE_DIR_MODE });
  // Created owner-only before SQLite opens it: its -wal and -shm files take the same mode.
  const file = join(home, 'lift.db');
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.transaction(() => {
    for (const statement of MIGRATIONS) db.exec(statement);
    for (const [table, column, type] of ADDED_COLUMNS) addColumn(db, table, column, type);
  })();
  return db;
}

/** Columns added after a table was first created, so that an older home opens with them too. */
const ADDED_COLUMNS: Array<[table: string, column: string, type: string]> = [
  // The digest a tool's preview read from the system (the draft as the person saw it).
  ['approvals', 'digest', 'TEXT'],
  ['approvals', 'replaced_by', 'TEXT'],
];

function addColumn(db: Db, table: string, column: string, type: string): void {
  const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all();
  if (!columns.some((existing) => existing.name === column)) {
    db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
}
