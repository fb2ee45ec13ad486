import type { EffectClass } from '../contract/effects.js';
import type { Db } from './database.js';
import type { Registration, RegistrationEntry, RegistrationRecords, StoredSignInRecipe } from './records.js';

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
  /** JSON of the whole recipe; the user and secret columns are those of registrations made before. */
  sign_in_recipe: string | null;
  registered_at: string;
}

/** The stored sign-in: the recipe kept whole, or the short form a registration made before recipes stands for. */
function signInFromRow(row: RegistrationRow): StoredSignInRecipe | undefined {
  if (row.sign_in_recipe) return JSON.parse(row.sign_in_recipe) as StoredSignInRecipe;
  if (!row.sign_in_user || !row.sign_in_secret) return undefined;
  // The `--user USER --secret NAME` form, as rungs/ui's passwordFormSignIn writes it.
  return {
    version: 1,
    fields: [
      { field: 'user', value: { literal: row.sign_in_user } },
      { field: 'password', value: { secret: row.sign_in_secret } },
    ],
    submit: 'press_enter',
    success: 'form_gone',
  } as StoredSignInRecipe;
}

export function registrationFromRow(row: RegistrationRow): Registration {
  return {
    name: row.name,
    revision: row.revision,
    effectClass: row.effect_class,
    enabled: row.enabled === 1,
    surfaceFailures: row.surface_failures,
    disabledReason: row.disabled_reason ?? undefined,
    signIn: signInFromRow(row),
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
    // The whole recipe is kept; the user and secret columns are those of registrations made before.
    this.#db
      .prepare(
        `INSERT INTO capability_tools (name, revision, effect_class, enabled, surface_failures, sign_in_user, sign_in_secret, sign_in_recipe, registered_at)
         VALUES (?, ?, ?, 1, 0, NULL, NULL, ?, ?)
         ON CONFLICT(name) DO UPDATE SET revision = excluded.revision, effect_class = excluded.effect_class,
           enabled = 1, surface_failures = 0, disabled_reason = NULL, sign_in_user = NULL, sign_in_secret = NULL,
           sign_in_recipe = excluded.sign_in_recipe, registered_at = excluded.registered_at`,
      )
      .run(
        entry.name,
        entry.revision,
        entry.effectClass,
        entry.signIn ? JSON.stringify(entry.signIn) : null,
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
