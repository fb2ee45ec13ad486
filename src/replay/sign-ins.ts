import type { Db } from '../store/database.js';

export interface StoredSignIn {
  user: string;
  /** The name of the stored secret (never its value). */
  secret: string;
}

/**
 * The sign-in given to `lift replay FILE --user --secret` for a capability nobody registered,
 * by revision: a held call of it runs with the same sign-in when a person approves it later.
 */
export class ReplaySignIns {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS replay_sign_ins (
      revision TEXT PRIMARY KEY,
      sign_in_user TEXT NOT NULL,
      sign_in_secret TEXT NOT NULL
    )`);
  }

  remember(revision: string, signIn: StoredSignIn): void {
    this.#db
      .prepare(
        `INSERT INTO replay_sign_ins (revision, sign_in_user, sign_in_secret) VALUES (?, ?, ?)
         ON CONFLICT(revision) DO UPDATE SET sign_in_user = excluded.sign_in_user, sign_in_secret = excluded.sign_in_secret`,
      )
      .run(revision, signIn.user, signIn.secret);
  }

  get(revision: string): StoredSignIn | undefined {
    const row = this.#db
      .prepare<[string], { sign_in_user: string; sign_in_secret: string }>(
        'SELECT sign_in_user, sign_in_secret FROM replay_sign_ins WHERE revision = ?',
      )
      .get(revision);
    return row ? { user: row.sign_in_user, secret: row.sign_in_secret } : undefined;
  }
}
