import type pg from 'pg';
import type { Registration, RegistrationEntry, RegistrationRecords } from '../records.js';
import { FAILURES_BEFORE_DISABLE, type RegistrationRow, registrationFromRow } from '../registrations.js';
import { retrying, transaction } from './connection.js';

/**
 * Registered capabilities in the shared store, with the disabled switch: two SURFACE_CHANGED
 * in a row, counted across every worker, switch a capability off for all of them.
 */
export class PostgresRegistrations implements RegistrationRecords {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async register(entry: RegistrationEntry): Promise<Registration> {
    await retrying(() =>
      this.#pool.query(
        `INSERT INTO lift_capability_tools (name, revision, effect_class, enabled, surface_failures, sign_in_user, sign_in_secret, sign_in_recipe, registered_at)
         VALUES ($1, $2, $3, 1, 0, NULL, NULL, $4, $5)
         ON CONFLICT (name) DO UPDATE SET revision = excluded.revision, effect_class = excluded.effect_class,
           enabled = 1, surface_failures = 0, disabled_reason = NULL, sign_in_user = NULL, sign_in_secret = NULL,
           sign_in_recipe = excluded.sign_in_recipe, registered_at = excluded.registered_at`,
        [
          entry.name,
          entry.revision,
          entry.effectClass,
          entry.signIn ? JSON.stringify(entry.signIn) : null,
          new Date().toISOString(),
        ],
      ),
    );
    return (await this.get(entry.name))!;
  }

  async get(name: string): Promise<Registration | undefined> {
    const { rows } = await retrying(() =>
      this.#pool.query<RegistrationRow>('SELECT * FROM lift_capability_tools WHERE name = $1', [name]),
    );
    return rows[0] ? registrationFromRow(rows[0]) : undefined;
  }

  async list(): Promise<Registration[]> {
    const { rows } = await retrying(() =>
      this.#pool.query<RegistrationRow>('SELECT * FROM lift_capability_tools ORDER BY name'),
    );
    return rows.map(registrationFromRow);
  }

  recordSurfaceChanged(name: string, reason: string): Promise<boolean> {
    return transaction(this.#pool, async (sql) => {
      const { rows } = await sql.query<{ surface_failures: number }>(
        'UPDATE lift_capability_tools SET surface_failures = surface_failures + 1 WHERE name = $1 RETURNING surface_failures',
        [name],
      );
      const failures = rows[0]?.surface_failures;
      if (failures === undefined || failures < FAILURES_BEFORE_DISABLE) return false;
      await sql.query('UPDATE lift_capability_tools SET enabled = 0, disabled_reason = $1 WHERE name = $2', [
        reason,
        name,
      ]);
      return true;
    });
  }

  async recordSurfaceOk(name: string): Promise<void> {
    await retrying(() =>
      this.#pool.query(
        'UPDATE lift_capability_tools SET surface_failures = 0 WHERE name = $1 AND surface_failures > 0',
        [name],
      ),
    );
  }

  async enable(name: string): Promise<boolean> {
    const result = await retrying(() =>
      this.#pool.query(
        'UPDATE lift_capability_tools SET enabled = 1, surface_failures = 0, disabled_reason = NULL WHERE name = $1',
        [name],
      ),
    );
    return result.rowCount === 1;
  }
}
