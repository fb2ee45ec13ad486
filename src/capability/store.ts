import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LiftError } from '../contract/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../contract/paths.js';
import { sha256 } from '../runtime/canonical.js';
import type { Db } from '../store/database.js';
import { type Capability, canonicalCapability, revisionOf, validateCapability } from './capability.js';

export interface StoredCapability {
  revision: string;
  name: string;
  intent: string;
  steps: number;
  createdAt: string;
  file: string;
}

interface Row {
  revision: string;
  name: string;
  intent: string;
  steps: number;
  created_at: string;
  file: string;
}

const REVISION = /^[0-9a-f]{64}$/;

function fromRow(row: Row): StoredCapability {
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
 * Capabilities on disk: one canonical JSON file per revision under `<home>/capabilities`,
 * indexed in a table. A file is only ever written after validation, and every read
 * re-hashes the content, so a tampered file is refused rather than replayed.
 */
export class CapabilityStore {
  readonly #db: Db;
  readonly #folder: string;

  constructor(db: Db, home: string) {
    this.#db = db;
    this.#folder = join(home, 'capabilities');
    db.exec(`CREATE TABLE IF NOT EXISTS capabilities (
      revision TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      intent TEXT NOT NULL,
      steps INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      file TEXT NOT NULL
    )`);
  }

  /** Validates and writes a capability; returns its revision. Invalid capabilities are never written. */
  save(raw: unknown): { revision: string; capability: Capability; file: string } {
    const result = validateCapability(raw);
    if (!result.success) {
      throw new LiftError('BAD_INPUT', `The capability is not valid: ${result.issues.join('; ')}`, {
        hint: 'Nothing was written. Fix the listed fields (or rediscover) and save again.',
        details: { issues: result.issues },
      });
    }
    const capability = result.data;
    const revision = revisionOf(capability);
    const file = join(this.#folder, `${revision}.json`);
    mkdirSync(this.#folder, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (!existsSync(file)) {
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, canonicalCapability(capability), { mode: PRIVATE_FILE_MODE });
      renameSync(partial, file);
    }
    this.#db
      .prepare(
        `INSERT OR IGNORE INTO capabilities (revision, name, intent, steps, created_at, file) VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(
        revision,
        capability.name,
        capability.intent,
        capability.steps.length,
        new Date().toISOString(),
        file,
      );
    return { revision, capability, file };
  }

  /** Loads a revision, re-hashing the file first: content that does not match is REVISION_MISMATCH. */
  load(revision: string): Capability {
    if (!REVISION.test(revision))
      throw new LiftError('BAD_INPUT', `'${revision}' is not a SHA-256 revision.`);
    const row = this.#db
      .prepare<[string], Row>('SELECT * FROM capabilities WHERE revision = ?')
      .get(revision);
    const file = row?.file ?? join(this.#folder, `${revision}.json`);
    if (!existsSync(file)) {
      throw new LiftError('NOT_FOUND', `No capability has revision ${revision}.`, {
        hint: 'List the stored capabilities with lift capabilities list.',
      });
    }
    return verifiedCapability(readFileSync(file, 'utf8'), revision);
  }

  /** Finds a stored capability by full revision, revision prefix, or name (its newest revision). */
  resolve(reference: string): StoredCapability | undefined {
    const byName = this.#db
      .prepare<[string], Row>(
        'SELECT * FROM capabilities WHERE name = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
      )
      .get(reference);
    if (byName) return fromRow(byName);
    if (!/^[0-9a-f]{6,64}$/.test(reference)) return undefined;
    const rows = this.#db
      .prepare<[string], Row>('SELECT * FROM capabilities WHERE revision LIKE ? LIMIT 2')
      .all(`${reference}%`);
    return rows.length === 1 ? fromRow(rows[0]!) : undefined;
  }

  list(): StoredCapability[] {
    return this.#db
      .prepare<[], Row>('SELECT * FROM capabilities ORDER BY created_at DESC, rowid DESC')
      .all()
      .map(fromRow);
  }
}

/** Parses stored text, checks that it hashes to `revision`, and validates it. */
export function verifiedCapability(text: string, revision: string): Capability {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LiftError('REVISION_MISMATCH', `The capability file for ${revision.slice(0, 12)} is not JSON.`);
  }
  const result = validateCapability(parsed);
  if (!result.success) {
    throw new LiftError(
      'REVISION_MISMATCH',
      `The capability for ${revision.slice(0, 12)} no longer validates.`,
      {
        details: { issues: result.issues },
      },
    );
  }
  const actual = revisionOf(result.data);
  if (actual !== revision || sha256(text) !== revision) {
    throw new LiftError(
      'REVISION_MISMATCH',
      `Capability content hashes to ${actual.slice(0, 12)}, not ${revision.slice(0, 12)}.`,
      {
        details: { expected: revision, actual },
      },
    );
  }
  return result.data;
}
