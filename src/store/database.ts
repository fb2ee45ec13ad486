import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

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
  mkdirSync(home, { recursive: true });
  const db = new Database(join(home, 'lift.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.transaction(() => {
    for (const statement of MIGRATIONS) db.exec(statement);
  })();
  return db;
}
