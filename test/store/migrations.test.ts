import { afterAll, describe, expect, it } from 'vitest';
import { Runtime } from '../../src/runtime/runtime.js';
import { openDatabase } from '../../src/store/database.js';
import {
  MIGRATIONS,
  type Migration,
  migrate,
  SCHEMA_VERSION,
  schemaVersion,
} from '../../src/store/migrations.js';
import { lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { board, copyOldHome, tools } from './home-0.1.0.js';

const dir = tempDir('lift-migrations-');
afterAll(() => dir.remove());
let cases = 0;
const fresh = () => `${dir.path}/case-${++cases}`;

const TABLES = [
  'agent_tasks',
  'approvals',
  'call_batches',
  'capabilities',
  'capability_tools',
  'desktop_skills',
  'handoffs',
  'kv',
  'ladder_operations',
  'ladder_schedules',
  'ladder_walks',
  'ledger',
  'replay_sign_ins',
  'runs',
];

function tablesOf(db: ReturnType<typeof openDatabase>): string[] {
  return db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((row) => row.name);
}

describe('the store schema', () => {
  it('gives a new home every table and records the newest schema version', () => {
    const db = openDatabase(fresh());
    try {
      expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
      expect(tablesOf(db)).toEqual(TABLES);
      expect(MIGRATIONS.map((migration) => migration.version)).toEqual(
        MIGRATIONS.map((_, index) => index + 1),
      );
    } finally {
      db.close();
    }
  });

  it('migrates the home Lift 0.1.0 left: its runs, its ledger and its held calls keep working', async () => {
    const old = copyOldHome(fresh());
    const runtime = new Runtime({ home: old.home, tools });
    process.env.LIFT_TEST_SYSTEM = old.system;
    try {
      expect(schemaVersion(runtime.store.db)).toBe(SCHEMA_VERSION);
      expect(tablesOf(runtime.store.db)).toEqual(TABLES);
      // The write 0.1.0 did is answered from the ledger, not done again.
      const repeat = await runtime.invoke('fixture_record_create', {
        name: 'alpha',
        request_id: 'fixture-create-1',
      });
      expect(repeat).toMatchObject({ ok: true, effect: 'existing' });
      expect(board(old.system)).toHaveLength(1);
      expect((await runtime.store.approvals.get(old.held))?.state).toBe('pending');
      // The call 0.1.0 held is recognised by the hash the migration computed for it.
      const text = `token ${old.canary} for the partner`;
      const same = await runtime.invoke('fixture_notice_publish', { text, request_id: 'fixture-notice-1' });
      expect(same).toMatchObject({
        ok: false,
        error: { code: 'APPROVAL_PENDING' },
        pending: { approval_id: old.held },
      });
      const other = await runtime.invoke('fixture_notice_publish', {
        text: 'else',
        request_id: 'fixture-notice-1',
      });
      expect(other).toMatchObject({ ok: false, error: { code: 'REQUEST_ID_REUSED' } });
    } finally {
      await runtime.close();
    }
  });

  it('shows the 0.1.0 run log through lift runs, under today’s event names', async () => {
    const old = copyOldHome(fresh());
    const env = { LIFT_HOME: old.home, LIFT_TEST_SYSTEM: old.system };
    const listed = JSON.parse((await lift(['runs', '--json'], { cwd: dir.path, env })).stdout) as Array<{
      id: string;
      title: string;
    }>;
    const created = listed.find((run) => run.title === 'fixture_record_create');
    expect(created).toBeDefined();
    const shown = JSON.parse(
      (await lift(['runs', 'show', created!.id, '--json'], { cwd: dir.path, env })).stdout,
    ) as { events: Array<{ type: string }>; model_events: number };
    expect(shown.events.map((event) => event.type)).toEqual([
      'call-start',
      'input-validated',
      'ledger-claimed',
      'gate-passed',
      'call-end',
    ]);
    expect(shown.model_events).toBe(0);
  });

  it('applies each migration once, in order, and none again at the next open', () => {
    const home = fresh();
    openDatabase(home).close();
    const applied: number[] = [];
    const next: Migration[] = [
      ...MIGRATIONS,
      {
        version: SCHEMA_VERSION + 1,
        name: 'a test table',
        up: (db) => {
          applied.push(SCHEMA_VERSION + 1);
          db.exec('CREATE TABLE test_once (id INTEGER)');
        },
      },
    ];
    const db = openDatabase(home);
    try {
      migrate(db, next);
      migrate(db, next);
      expect(applied).toEqual([SCHEMA_VERSION + 1]);
      expect(schemaVersion(db)).toBe(SCHEMA_VERSION + 1);
    } finally {
      db.close();
    }
  });

  it('leaves the database as it was when a migration fails half way', () => {
    const db = openDatabase(fresh());
    try {
      const failing: Migration[] = [
        ...MIGRATIONS,
        {
          version: SCHEMA_VERSION + 1,
          name: 'fails after its first statement',
          up: (database) => {
            database.exec('CREATE TABLE half_done (id INTEGER)');
            throw new Error('disk full');
          },
        },
      ];
      expect(() => migrate(db, failing)).toThrow('disk full');
      expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
      expect(tablesOf(db)).not.toContain('half_done');
    } finally {
      db.close();
    }
  });

  it('refuses a database written by a newer Lift, and says so', () => {
    const home = fresh();
    const db = openDatabase(home);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    expect(() => openDatabase(home)).toThrow(/newer than this Lift knows/);
  });
});
