import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { LiftError } from '../../../contract/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../../contract/paths.js';
import { sha256 } from '../../../runtime/canonical.js';
import type { Db } from '../../../store/database.js';
import { canonicalSkill, type DesktopSkill, DesktopSkillSchema, skillRevision } from './format.js';

interface Row {
  revision: string;
  name: string;
  program: string;
  file: string;
}

const REVISION = /^[0-9a-f]{64}$/;

/**
 * Learned skills on disk the way capabilities are kept: one canonical JSON file per revision
 * under `<home>/skills`, indexed in a table, written only after validation, and re-hashed on
 * every load so that a changed file is refused (REVISION_MISMATCH) rather than replayed.
 */
export class SkillStore {
  readonly #db: Db;
  readonly #folder: string;

  constructor(db: Db, home: string) {
    this.#db = db;
    this.#folder = join(home, 'skills');
    db.exec(`CREATE TABLE IF NOT EXISTS desktop_skills (
      revision TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      program TEXT NOT NULL,
      created_at TEXT NOT NULL,
      file TEXT NOT NULL
    )`);
  }

  save(skill: DesktopSkill): { revision: string; file: string } {
    const valid = DesktopSkillSchema.parse(skill);
    const revision = skillRevision(valid);
    const file = join(this.#folder, `${revision}.json`);
    mkdirSync(this.#folder, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (!existsSync(file)) {
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, canonicalSkill(valid), { mode: PRIVATE_FILE_MODE });
      renameSync(partial, file);
    }
    this.#db
      .prepare(
        'INSERT OR IGNORE INTO desktop_skills (revision, name, program, created_at, file) VALUES (?, ?, ?, ?, ?)',
      )
      .run(revision, valid.name, valid.program, new Date().toISOString(), file);
    return { revision, file };
  }

  has(revision: string): boolean {
    return (
      this.#db.prepare<[string], Row>('SELECT * FROM desktop_skills WHERE revision = ?').get(revision) !==
      undefined
    );
  }

  load(revision: string): DesktopSkill {
    if (!REVISION.test(revision))
      throw new LiftError('BAD_INPUT', `'${revision}' is not a SHA-256 revision.`);
    const row = this.#db
      .prepare<[string], Row>('SELECT * FROM desktop_skills WHERE revision = ?')
      .get(revision);
    const file = row?.file ?? join(this.#folder, `${revision}.json`);
    if (!existsSync(file)) throw new LiftError('NOT_FOUND', `No skill has revision ${revision}.`);
    const text = readFileSync(file, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new LiftError('REVISION_MISMATCH', `The skill file for ${revision.slice(0, 12)} is not JSON.`);
    }
    const result = DesktopSkillSchema.safeParse(parsed);
    if (!result.success) {
      throw new LiftError(
        'REVISION_MISMATCH',
        `The skill ${revision.slice(0, 12)} no longer validates: ${z.prettifyError(result.error)}`,
      );
    }
    if (sha256(text) !== revision || skillRevision(result.data) !== revision) {
      throw new LiftError('REVISION_MISMATCH', `The skill file does not hash to ${revision.slice(0, 12)}.`);
    }
    return result.data;
  }
}
