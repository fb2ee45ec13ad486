import { hashValue } from './canonical.js';
import type { Db } from './database.js';

/**
 * One step of Lift's database schema. Migrations run in order, each once, when a store
 * opens; `PRAGMA user_version` records the last one applied. Never edit a migration that
 * has shipped: add the next one.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly up: (db: Db) => void;
}

function addColumnIfMissing(db: Db, table: string, column: string, type: string): void {
  const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all();
  if (!columns.some((existing) => existing.name === column))
    db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
}

function statements(...sql: string[]): (db: Db) => void {
  return (db) => {
    for (const statement of sql) db.exec(statement);
  };
}

/**
 * Lift 0.1.0 created its tables with IF NOT EXISTS as each module opened and recorded no
 * version (user_version 0), so the first three migrations create only what is missing
 * (a home written between 0.1.0 and versions may have the digest column). Every later one
 * runs exactly once, as it is written.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'ledger, approvals and the run index',
    up: statements(
      `CREATE TABLE IF NOT EXISTS ledger (
         tool TEXT NOT NULL,
         request_id TEXT NOT NULL,
         state TEXT NOT NULL,            -- in_flight | done | unknown
         input_hash TEXT NOT NULL,
         envelope TEXT,
         pid INTEGER,
         started_at TEXT NOT NULL,
         finished_at TEXT,
         PRIMARY KEY (tool, request_id)
       )`,
      `CREATE TABLE IF NOT EXISTS approvals (
         id TEXT PRIMARY KEY,
         tool TEXT NOT NULL,
         input TEXT NOT NULL,
         request_id TEXT,
         gate TEXT NOT NULL,
         preview TEXT NOT NULL,
         phrase TEXT,
         state TEXT NOT NULL,            -- pending | approved | executed | denied
         envelope TEXT,
         created_at TEXT NOT NULL,
         decided_at TEXT,
         decided_by TEXT
       )`,
      `CREATE INDEX IF NOT EXISTS approvals_by_request ON approvals (tool, request_id)`,
      `CREATE TABLE IF NOT EXISTS runs (
         id TEXT PRIMARY KEY,
         kind TEXT NOT NULL,             -- call | agent | replay | discovery | ...
         title TEXT NOT NULL,
         started_at TEXT NOT NULL,
         ended_at TEXT,
         ok INTEGER,
         events INTEGER NOT NULL DEFAULT 0,
         model_events INTEGER NOT NULL DEFAULT 0,
         file TEXT NOT NULL
       )`,
      // Single calls are indexed a flush at a time: one row per batch, the calls as a JSON array.
      `CREATE TABLE IF NOT EXISTS call_batches (
         id INTEGER PRIMARY KEY,
         file TEXT NOT NULL,             -- the segment file holding the batch's event lines
         byte_offset INTEGER NOT NULL,   -- where those lines start in it
         byte_length INTEGER NOT NULL,
         first_id TEXT NOT NULL,         -- smallest and largest run id in the batch
         last_id TEXT NOT NULL,
         first_started_at TEXT NOT NULL, -- earliest and latest start in the batch
         last_started_at TEXT NOT NULL,
         calls TEXT NOT NULL             -- [[id, kind, title, started_at, ended_at, ok, events, model_events], ...]
       )`,
      // Finding one call by id is what happens per call; lists scan the batches (one row per flush),
      // and every further index would cost each flush more than it saves those scans.
      `CREATE INDEX IF NOT EXISTS call_batches_by_last_id ON call_batches (last_id)`,
      `CREATE VIEW IF NOT EXISTS call_runs AS
         SELECT call.value ->> 0 AS id, call.value ->> 1 AS kind, call.value ->> 2 AS title,
                call.value ->> 3 AS started_at, call.value ->> 4 AS ended_at, call.value ->> 5 AS ok,
                call.value ->> 6 AS events, call.value ->> 7 AS model_events, batch.file AS file,
                batch.byte_offset, batch.byte_length,
                batch.first_id, batch.last_id, batch.last_started_at AS batch_last_start
         FROM call_batches AS batch, json_each(batch.calls) AS call`,
      `CREATE TABLE IF NOT EXISTS kv (
         namespace TEXT NOT NULL,
         key TEXT NOT NULL,
         value TEXT NOT NULL,
         updated_at TEXT NOT NULL,
         PRIMARY KEY (namespace, key)
       )`,
    ),
  },
  {
    version: 2,
    name: 'agent tasks, the ladder, capabilities and their registrations',
    up: statements(
      `CREATE TABLE IF NOT EXISTS agent_tasks (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         run_id TEXT NOT NULL,
         request TEXT NOT NULL,
         provider TEXT NOT NULL,
         model TEXT NOT NULL,
         model_calls INTEGER NOT NULL,
         model_requests INTEGER NOT NULL,
         tool_calls INTEGER NOT NULL,
         ui_actions INTEGER NOT NULL,
         input_tokens INTEGER NOT NULL,
         output_tokens INTEGER NOT NULL,
         schema_tokens INTEGER NOT NULL,
         seconds REAL NOT NULL,
         checks_passed INTEGER NOT NULL,
         checks_total INTEGER NOT NULL,
         outcome TEXT NOT NULL,
         stopped_by TEXT,
         started_at TEXT NOT NULL
       )`,
      `CREATE TABLE IF NOT EXISTS ladder_operations (
         name TEXT PRIMARY KEY,
         declaration TEXT NOT NULL,
         updated_at TEXT NOT NULL
       )`,
      `CREATE TABLE IF NOT EXISTS ladder_walks (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         operation TEXT NOT NULL,
         at TEXT NOT NULL,
         trigger TEXT NOT NULL,
         rung TEXT,
         previous_rung TEXT,
         direction TEXT NOT NULL,
         results TEXT NOT NULL,
         note TEXT
       )`,
      'CREATE INDEX IF NOT EXISTS ladder_walks_by_operation ON ladder_walks (operation, id)',
      `CREATE TABLE IF NOT EXISTS ladder_schedules (
         operation TEXT PRIMARY KEY,
         every_ms INTEGER NOT NULL,
         next_at TEXT NOT NULL
       )`,
      `CREATE TABLE IF NOT EXISTS capabilities (
         revision TEXT PRIMARY KEY,
         name TEXT NOT NULL,
         intent TEXT NOT NULL,
         steps INTEGER NOT NULL,
         created_at TEXT NOT NULL,
         file TEXT NOT NULL
       )`,
      `CREATE TABLE IF NOT EXISTS capability_tools (
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
    ),
  },
  {
    version: 3,
    name: 'the digest a tool’s preview read from the system',
    // Homes written after the digest came in, and before versions, have the column already.
    up: (db) => addColumnIfMissing(db, 'approvals', 'digest', 'TEXT'),
  },
  {
    version: 4,
    name: 'the input hash of each held call',
    up: (db) => {
      // A repeat of a held call with other input must be told REQUEST_ID_REUSED; the hash is
      // what tells (the stored input itself is masked from version 6 on).
      db.exec('ALTER TABLE approvals ADD COLUMN input_hash TEXT');
      const update = db.prepare('UPDATE approvals SET input_hash = ? WHERE id = ?');
      for (const row of db
        .prepare<[], { id: string; input: string }>('SELECT id, input FROM approvals')
        .all())
        update.run(hashValue(JSON.parse(row.input)), row.id);
    },
  },
  {
    version: 5,
    name: 'the owner of each approved call, with its lease',
    // An approved call is run by one process; if it dies, the next approver must know.
    up: statements(
      'ALTER TABLE approvals ADD COLUMN owner_pid INTEGER',
      'ALTER TABLE approvals ADD COLUMN owner_host TEXT',
      'ALTER TABLE approvals ADD COLUMN owner_started TEXT',
      'ALTER TABLE approvals ADD COLUMN heartbeat_at TEXT',
    ),
  },
  {
    version: 6,
    name: 'held inputs stored with their secrets masked',
    // NULL marks an input stored unmasked by Lift 0.1.0; the store masks those when it opens.
    up: statements('ALTER TABLE approvals ADD COLUMN input_masks TEXT'),
  },
  {
    version: 7,
    name: 'the index of learned desktop skills',
    // The desktop rung created this table itself before it came here; a home may have it.
    up: statements(`CREATE TABLE IF NOT EXISTS desktop_skills (
      revision TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      program TEXT NOT NULL,
      created_at TEXT NOT NULL,
      file TEXT NOT NULL
    )`),
  },
  {
    version: 8,
    name: 'the sign-in of each unregistered capability lift replay held',
    // Replay created this table itself before it came here; a home may have it.
    up: statements(`CREATE TABLE IF NOT EXISTS replay_sign_ins (
      revision TEXT PRIMARY KEY,
      sign_in_user TEXT NOT NULL,
      sign_in_secret TEXT NOT NULL
    )`),
  },
  {
    version: 9,
    name: 'the held call that a change of input in the console replaced a denied one with',
    up: (db) => addColumnIfMissing(db, 'approvals', 'replaced_by', 'TEXT'),
  },
  {
    version: 10,
    name: 'pages handed to a person, and where the process holding each answers',
    // The console may be another process than the one holding the page (lift serve, lift call).
    up: statements(`CREATE TABLE handoffs (
      id TEXT PRIMARY KEY,
      reason TEXT NOT NULL,
      tool TEXT,
      run_id TEXT,
      endpoint TEXT NOT NULL,         -- http://127.0.0.1:PORT of the holding process
      token TEXT NOT NULL,            -- its bearer token for this handoff; emptied when it ends
      owner_pid INTEGER NOT NULL,
      owner_host TEXT NOT NULL,
      owner_started TEXT,
      started_at TEXT NOT NULL,
      deadline_at TEXT NOT NULL,
      state TEXT NOT NULL,            -- waiting | done | expired | ended
      ended_at TEXT
    )`),
  },
  {
    version: 11,
    name: 'the whole sign-in recipe a capability was registered or replayed with',
    // JSON of a SignInRecipe; the user and secret columns remain for sign-ins stored before.
    up: statements(
      'ALTER TABLE capability_tools ADD COLUMN sign_in_recipe TEXT',
      'ALTER TABLE replay_sign_ins ADD COLUMN sign_in_recipe TEXT',
    ),
  },
  {
    version: 12,
    name: 'the folders a held call’s paths were checked against',
    // JSON list of folders: the approved call reaches the roots its caller had (an MCP client's).
    up: statements('ALTER TABLE approvals ADD COLUMN roots TEXT'),
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/**
 * Brings the database to the newest schema: the migrations it has not seen, in order, in
 * one transaction that holds the write lock from its start, so two processes opening one
 * home at once apply each migration once. A database from a newer Lift is refused.
 */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): void {
  const newest = migrations.at(-1)?.version ?? 0;
  // A read outside the transaction spares every open of an up-to-date home the write lock.
  if (schemaVersion(db) === newest) return;
  db.transaction(() => {
    const current = schemaVersion(db);
    if (current > newest) {
      throw new Error(
        `This Lift home's database has schema version ${current}, newer than this Lift knows (${newest}). Use the newer Lift, or another LIFT_HOME.`,
      );
    }
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }
  }).immediate();
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}
