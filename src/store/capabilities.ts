import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../contract/paths.js';
import type { Db } from './database.js';
import type { CapabilityRecords, StoredCapability } from './records.js';

/** A capability's index row as both stores keep it. */
export interface CapabilityRow {
  revision: string;
  name: string;
  intent: string;
  steps: number;
  created_at: string;
  file: string;
}

export function capabilityFromRow(row: CapabilityRow): StoredCapability {
  return {
    revision: row.revision,
    name: row.name,
    intent: row.intent,
    steps: row.steps,
    createdAt: row.created_at,
    file: row.file,
  };
}

/**
 * The embedded store's capabilities: one canonical JSON file per revision under
 * `<home>/capabilities`, indexed in the database. A file is written once, under a temporary
 * name first, and never changed.
 */
export class CapabilityFiles implements CapabilityRecords {
  readonly #db: Db;
  readonly #folder: string;

  constructor(db: Db, home: string) {
    this.#db = db;
    this.#folder = join(home, 'capabilities');
  }

  put(entry: { revision: string; name: string; intent: string; steps: number; text: string }): string {
    const file = join(this.#folder, `${entry.revision}.json`);
    mkdirSync(this.#folder, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (!existsSync(file)) {
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, entry.text, { mode: PRIVATE_FILE_MODE });
      renameSync(partial, file);
    }
    this.#db
      .prepare(
        `INSERT OR IGNORE INTO capabilities (revision, name, intent, steps, created_at, file) VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(entry.revision, entry.name, entry.intent, entry.steps, new Date().toISOString(), file);
    return file;
  }

  text(revision: string): string | undefined {
    const row = this.#db
      .prepare<[string], { file: string }>('SELECT file FROM capabilities WHERE revision = ?')
      .get(revision);
    const file = row?.file ?? join(this.#folder, `${revision}.json`);
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  }

  newest(name: string): StoredCapability | undefined {
    const row = this.#db
      .prepare<[string], CapabilityRow>(
        'SELECT * FROM capabilities WHERE name = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
      )
      .get(name);
    return row ? capabilityFromRow(row) : undefined;
  }

  withPrefix(prefix: string, limit: number): StoredCapability[] {
    return this.#db
      .prepare<[string, number], CapabilityRow>('SELECT * FROM capabilities WHERE revision LIKE ? LIMIT ?')
      .all(`${prefix}%`, limit)
      .map(capabilityFromRow);
  }

  list(): StoredCapability[] {
    return this.#db
      .prepare<[], CapabilityRow>('SELECT * FROM capabilities ORDER BY created_at DESC, rowid DESC')
      .all()
      .map(capabilityFromRow);
  }
}
