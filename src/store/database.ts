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
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    whileBusy(() => enterWal(db));
    db.pragma('synchronous = NORMAL');
    db.pragma(`cache_size = ${PAGE_CACHE_KIB}`);
    whileBusy(() => migrate(db));
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

const BUSY_TIMEOUT_MS = 5000;

/**
 * SQLite's own default page cache, 2 MB (negative: in KiB), where better-sqlite3 builds it with
 * 16 MB per connection. The run index is written once and read in small pieces, so the larger
 * cache only kept pages no query came back to: a `lift serve` grew by 115 bytes a call, 11 MB
 * over 100,000 calls, until the 16 MB were full.
 */
const PAGE_CACHE_KIB = -2000;

/**
 * WAL is a property of the file: once one process has converted it, every later open only
 * reads it and takes no lock. The conversion itself needs the file to itself, and SQLite does
 * not run the busy handler for it, so two processes opening a new home at once could see
 * "database is locked" (a `lift approve` run twice at once on a new host did in CI).
 */
function enterWal(db: Db): void {
  if (db.pragma('journal_mode', { simple: true }) === 'wal') return;
  db.pragma('journal_mode = WAL');
}

/** Runs `step` again, with a growing pause, while another process holds the lock it needs. */
function whileBusy(step: () => void): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0, wait = 5; ; waited += wait, wait = Math.min(wait * 2, 200)) {
    try {
      step();
      return;
    } catch (error) {
      if (!isBusy(error) || waited >= BUSY_TIMEOUT_MS) throw error;
      Atomics.wait(pause, 0, 0, wait);
    }
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
