import type pg from 'pg';
import { transaction } from './connection.js';

/**
 * The shared store's schema, one numbered list as in the embedded store (../migrations.ts):
 * the same records, prefixed `lift_` so they can share a database with the job queue. Times
 * are ISO text as in SQLite, so both stores read a row the same way.
 */
const MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string[] }> = [
  {
    version: 1,
    name: 'ledger, approvals, runs, capabilities and their registrations',
    sql: [
      `CREATE TABLE lift_ledger (
         tool TEXT NOT NULL,
         request_id TEXT NOT NULL,
         state TEXT NOT NULL,
         input_hash TEXT NOT NULL,
         envelope TEXT,
         owner_pid INTEGER,
         owner_host TEXT,
         owner_started TEXT,
         heartbeat_at TEXT,
         claim_token TEXT,
         started_at TEXT NOT NULL,
         finished_at TEXT,
         PRIMARY KEY (tool, request_id)
       )`,
      "CREATE INDEX lift_ledger_in_flight ON lift_ledger (owner_host, owner_pid) WHERE state = 'in_flight'",
      `CREATE TABLE lift_approvals (
         id TEXT PRIMARY KEY,
         tool TEXT NOT NULL,
         input TEXT NOT NULL,
         input_masks TEXT,
         input_hash TEXT,
         request_id TEXT,
         gate TEXT NOT NULL,
         preview TEXT NOT NULL,
         digest TEXT,
         phrase TEXT,
         state TEXT NOT NULL,
         envelope TEXT,
         created_at TEXT NOT NULL,
         decided_at TEXT,
         decided_by TEXT,
         owner_pid INTEGER,
         owner_host TEXT,
         owner_started TEXT,
         heartbeat_at TEXT,
         replaced_by TEXT
       )`,
      'CREATE INDEX lift_approvals_by_request ON lift_approvals (tool, request_id)',
      'CREATE INDEX lift_approvals_by_state ON lift_approvals (state, created_at)',
      `CREATE TABLE lift_runs (
         id TEXT PRIMARY KEY,
         kind TEXT NOT NULL,
         title TEXT NOT NULL,
         started_at TEXT NOT NULL,
         ended_at TEXT,
         ok INTEGER,
         events INTEGER NOT NULL DEFAULT 0,
         model_events INTEGER NOT NULL DEFAULT 0
       )`,
      'CREATE INDEX lift_runs_by_start ON lift_runs (started_at)',
      `CREATE TABLE lift_run_events (
         seq BIGSERIAL PRIMARY KEY,
         run_id TEXT NOT NULL,
         event TEXT NOT NULL
       )`,
      'CREATE INDEX lift_run_events_by_run ON lift_run_events (run_id, seq)',
      `CREATE TABLE lift_capabilities (
         revision TEXT PRIMARY KEY,
         name TEXT NOT NULL,
         intent TEXT NOT NULL,
         steps INTEGER NOT NULL,
         created_at TEXT NOT NULL,
         seq BIGSERIAL,
         text TEXT NOT NULL
       )`,
      'CREATE INDEX lift_capabilities_by_name ON lift_capabilities (name, created_at)',
      `CREATE TABLE lift_capability_tools (
         name TEXT PRIMARY KEY,
         revision TEXT NOT NULL,
         effect_class TEXT NOT NULL,
         enabled INTEGER NOT NULL DEFAULT 1,
         surface_failures INTEGER NOT NULL DEFAULT 0,
         disabled_reason TEXT,
         sign_in_user TEXT,
         sign_in_secret TEXT,
         registered_at TEXT NOT NULL
       )`,
    ],
  },
  {
    version: 2,
    name: 'the whole sign-in recipe a capability was registered with',
    // JSON of a sign-in recipe, as in the embedded store's version 11.
    sql: ['ALTER TABLE lift_capability_tools ADD COLUMN sign_in_recipe TEXT'],
  },
  {
    version: 3,
    name: 'the folders a held call’s paths were checked against',
    // As in the embedded store's version 12.
    sql: ['ALTER TABLE lift_approvals ADD COLUMN roots TEXT'],
  },
];

/**
 * Brings the shared database to the newest schema, once, however many workers start at
 * once: the migrations run under a transaction-level advisory lock.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  await transaction(pool, async (sql) => {
    await sql.query("SELECT pg_advisory_xact_lock(hashtext('lift schema'))");
    await sql.query('CREATE TABLE IF NOT EXISTS lift_schema (version INTEGER NOT NULL, name TEXT NOT NULL)');
    const { rows } = await sql.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM lift_schema',
    );
    const current = rows[0]?.version ?? 0;
    const newest = MIGRATIONS.at(-1)?.version ?? 0;
    if (current > newest)
      throw new Error(
        `The shared store has schema version ${current}, newer than this Lift knows (${newest}). Use the newer Lift.`,
      );
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      for (const statement of migration.sql) await sql.query(statement);
      await sql.query('INSERT INTO lift_schema (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
  });
}
