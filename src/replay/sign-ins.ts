import { parseSignInRecipe, passwordFormSignIn, type SignInRecipe } from '../rungs/ui/sign-in.js';
import type { Db } from '../store/database.js';
import type { Registration } from '../store/records.js';

/** The columns a sign-in is stored in: the whole recipe as JSON, or (stored before) a user and a secret name. */
export interface SignInColumns {
  sign_in_recipe: string | null;
  sign_in_user: string | null;
  sign_in_secret: string | null;
}

/** The stored sign-in as a recipe: the recipe kept whole, or the short form it was given as. */
export function recipeFromColumns(row: SignInColumns): SignInRecipe | undefined {
  if (row.sign_in_recipe)
    return parseSignInRecipe(JSON.parse(row.sign_in_recipe), 'The stored sign-in recipe');
  if (row.sign_in_user && row.sign_in_secret)
    return passwordFormSignIn(row.sign_in_user, { secret: row.sign_in_secret });
  return undefined;
}

/**
 * The sign-in given to `lift replay FILE` for a capability nobody registered, by revision:
 * a held call of it runs with the same recipe when a person approves it later.
 */
export class ReplaySignIns {
  readonly #db: Db;

  constructor(db: Db) {
    // The replay_sign_ins table comes with the store's migrations (store/migrations.ts).
    this.#db = db;
  }

  remember(revision: string, recipe: SignInRecipe): void {
    // The user and secret columns are those of sign-ins stored before recipes; NOT NULL, so empty.
    this.#db
      .prepare(
        `INSERT INTO replay_sign_ins (revision, sign_in_user, sign_in_secret, sign_in_recipe) VALUES (?, '', '', ?)
         ON CONFLICT(revision) DO UPDATE SET sign_in_user = '', sign_in_secret = '', sign_in_recipe = excluded.sign_in_recipe`,
      )
      .run(revision, JSON.stringify(recipe));
  }

  get(revision: string): SignInRecipe | undefined {
    const row = this.#db
      .prepare<[string], SignInColumns>(
        'SELECT sign_in_user, sign_in_secret, sign_in_recipe FROM replay_sign_ins WHERE revision = ?',
      )
      .get(revision);
    return row ? recipeFromColumns(row) : undefined;
  }
}

/** A registration's sign-in as a recipe, checked as it is read (the store keeps it as JSON it does not interpret). */
export function registeredSignIn(registration: Registration): SignInRecipe | undefined {
  return registration.signIn
    ? parseSignInRecipe(registration.signIn, 'The stored sign-in recipe')
    : undefined;
}
