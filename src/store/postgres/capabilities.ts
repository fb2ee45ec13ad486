import type pg from 'pg';
import { type CapabilityRow, capabilityFromRow } from '../capabilities.js';
import type { CapabilityRecords, StoredCapability } from '../records.js';
import { retrying } from './connection.js';

const COLUMNS = `revision, name, intent, steps, created_at, 'postgres:' || revision AS file`;

/** Capabilities in the shared store: their canonical text by revision, so any worker can replay one. */
export class PostgresCapabilities implements CapabilityRecords {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async #rows(text: string, values: unknown[] = []): Promise<StoredCapability[]> {
    const { rows } = await retrying(() => this.#pool.query<CapabilityRow>(text, values));
    return rows.map(capabilityFromRow);
  }

  async put(entry: {
    revision: string;
    name: string;
    intent: string;
    steps: number;
    text: string;
  }): Promise<string> {
    await retrying(() =>
      this.#pool.query(
        `INSERT INTO lift_capabilities (revision, name, intent, steps, created_at, text) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (revision) DO NOTHING`,
        [entry.revision, entry.name, entry.intent, entry.steps, new Date().toISOString(), entry.text],
      ),
    );
    return `postgres:${entry.revision}`;
  }

  async text(revision: string): Promise<string | undefined> {
    const { rows } = await retrying(() =>
      this.#pool.query<{ text: string }>('SELECT text FROM lift_capabilities WHERE revision = $1', [
        revision,
      ]),
    );
    return rows[0]?.text;
  }

  async newest(name: string): Promise<StoredCapability | undefined> {
    const found = await this.#rows(
      `SELECT ${COLUMNS} FROM lift_capabilities WHERE name = $1 ORDER BY created_at DESC, seq DESC LIMIT 1`,
      [name],
    );
    return found[0];
  }

  withPrefix(prefix: string, limit: number): Promise<StoredCapability[]> {
    return this.#rows(`SELECT ${COLUMNS} FROM lift_capabilities WHERE revision LIKE $1 LIMIT $2`, [
      `${prefix}%`,
      limit,
    ]);
  }

  list(): Promise<StoredCapability[]> {
    return this.#rows(`SELECT ${COLUMNS} FROM lift_capabilities ORDER BY created_at DESC, seq DESC`);
  }
}
