import type { EffectClass } from '../contract/effects.js';
import type { Db } from './database.js';
import type { Registration, RegistrationEntry, RegistrationRecords } from './records.js';

/** A registration as both stores keep it. */
export interface RegistrationRow {
  name: string;
  revision: string;
  effect_class: EffectClass;
  enabled: number;
  surface_failures: number;
  disabled_reason: string | null;
  sign_in_user: string | null;
  sign_in_secret: string | null;
  registered_at: string;
}

export function registrationFromRow(row: RegistrationRow): Registration {
  return {
    name: row.name,
    revision: row.revision,
    effectClass: row.effect_class,
    enabled: row.enabled === 1,
    surfaceFailures: row.surface_failures,
    disabledReason: row.disabled_reason ?? undefined,
    signIn:
      row.sign_in_user && row.sign_in_secret
        ? { user: row.sign_in_user, secret: row.sign_in_secret }
        : undefined,
    registeredAt: row.registered_at,
  };
}

export const FAILURES_BEFORE_DISABLE = 2;

/** Which capabilities are tools, with the side-effect class a reviewer declared for each. */
export class Registrations implements RegistrationRecords {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** Registers (or re-registers, which re-enables) a capability revision under its name. */
  register(entry: RegistrationEntry): Registration {
    this.#db
      .prepare(
        `INSERT INTO capability_tools (name, revision, effect_class, enabled, surface_failures, sign_in_user, sign_in_secret, registered_at)
         VALUES (?, ?, ?, 1, 0, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET revision = excluded.revision, effect_class = excluded.effect_class,
           enabled = 1, surface_failures = 0, disabled_reason = NULL,
           sign_in_user = excluded.sign_in_user, sign_in_secret = excluded.sign_in_secret, registered_at = excluded.registered_at`,
      )
      .run(
        entry.name,
        entry.revision,
        entry.effectClass,
        entry.signIn?.user ?? null,
        entry.signIn?.secret ?? null,
        new Date().toISOString(),
      );
    return this.get(entry.name)!;
  }

  get(name: string): Registration | undefined {
    const row = this.#db
      .prepare<[string], RegistrationRow>('SELECT * FROM capability_tools WHERE name = ?')
      .get(name);
    return row ? registrationFromRow(row) : undefined;
  }

  list(): Registration[] {
    return this.#db
      .prepare<[], RegistrationRow>('SELECT * FROM capability_tools ORDER BY name')
      .all()
      .map(registrationFromRow);
  }

  /** Counts a SURFACE_CHANGED; the second in a row disables the capability. Returns whether it is now off. */
  recordSurfaceChanged(name: string, reason: string): boolean {
    return this.#db.transaction(() => {
      this.#db
        .prepare('UPDATE capability_tools SET surface_failures = surface_failures + 1 WHERE name = ?')
        .run(name);
      const current = this.get(name);
      if (!current || current.surfaceFailures < FAILURES_BEFORE_DISABLE) return false;
      this.#db
        .prepare('UPDATE capability_tools SET enabled = 0, disabled_reason = ? WHERE name = ?')
        .run(reason, name);
      return true;
    })();
  }

  /** Any run that got past the surface check resets the count. */
  recordSurfaceOk(name: string): void {
    this.#db
      .prepare('UPDATE capability_tools SET surface_failures = 0 WHERE name = ? AND surface_failures > 0')
      .run(name);
  }

  enable(name: string): boolean {
    const result = this.#db
      .prepare(
        'UPDATE capability_tools SET enabled = 1, surface_failures = 0, disabled_reason = NULL WHERE name = ?',
      )
      .run(name);
    return result.changes === 1;
  }
}
