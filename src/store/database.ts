import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations.js';

export type Db = Database.Database;

/**
 * Opens (and creates) Lift's embedded database in `home`, in WAL mode so a kill -9 loses
 * nothing committed, and brings its schema up to date (migrations.ts).
 */
export function openDatabase(home: string): Db {
  mkdirSync(home, { recursive: true });
  const db = new Database(join(home, 'lift.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
