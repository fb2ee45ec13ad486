import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PRIVATE_FILE_MODE } from '../contract/paths.js';
import { prepareHome } from './home.js';
import { migrate } from './migrations.js';

export type Db = Database.Database;

/**
 * Opens (and creates) Lift's embedded database in `home`, in WAL mode so a kill -9 loses
 * nothing committed, and brings its schema up to date (migrations.ts).
 */
export function openDatabase(home: string): Db {
  prepareHome(home);
  // Created owner-only before SQLite opens it: its -wal and -shm files take the same mode.
  const file = join(home, 'lift.db');
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
