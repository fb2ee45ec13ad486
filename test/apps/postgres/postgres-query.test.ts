import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresTools } from '../../../src/apps/postgres/tools.js';
import { type Envelope, isError, isSuccess } from '../../../src/contract/envelope.js';
import { runWrapped } from '../../../src/rungs/cli/run-wrapped.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { failure, startupMs } from '../../rungs/cli/helpers.js';
import { type PostgresServer, startPostgres } from '../../support/postgres-server.js';

const PASSWORD = 'canary-pg-5d1e77b0';
let server: PostgresServer;
const homes: string[] = [];
const runtimes: Runtime[] = [];

beforeAll(async () => {
  server = await startPostgres();
  server.admin(`CREATE ROLE reader LOGIN PASSWORD '${PASSWORD}'`);
  server.admin(
    "CREATE TABLE stock (sku text PRIMARY KEY, name text, qty int); INSERT INTO stock SELECT 'S-' || lpad(i::text, 4, '0'), 'Item, no. ' || i, i % 17 FROM generate_series(1, 3000) i; GRANT SELECT ON stock TO reader",
  );
}, 120_000);

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
  server?.stop();
});

function lift(password?: string): Runtime {
  const home = mkdtempSync(join(tmpdir(), 'lift-pg-home-'));
  homes.push(home);
  const runtime = new Runtime({
    home,
    env: password ? { LIFT_SECRET_POSTGRES_PASSWORD: password } : {},
    tools: postgresTools({
      host: '127.0.0.1',
      port: server.port,
      user: 'reader',
      database: 'postgres',
      passwordSecret: 'postgres_password',
    }),
  });
  runtimes.push(runtime);
  return runtime;
}

/** Everything Lift wrote for a runtime: envelopes are checked separately, this covers run logs and files. */
function writtenFiles(home: string): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.startsWith('lift.db') && entry.name !== 'secrets.json')
        texts.push(readFileSync(path, 'utf8'));
    }
  };
  walk(home);
  return texts.join('\n');
}

describe('postgres_query', () => {
  it('returns rows parsed from psql --csv, with a comma inside a value intact', async () => {
    const envelope = await lift(PASSWORD).invoke('postgres_query', {
      sql: "SELECT sku, name, qty FROM stock WHERE sku = 'S-0042'",
    });
    if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope));
    expect(envelope.fields).toEqual({
      columns: ['sku', 'name', 'qty'],
      rows: [{ sku: 'S-0042', name: 'Item, no. 42', qty: '8' }],
      row_count: 1,
    });
  });

  it('refuses SQL holding a NUL byte with BAD_INPUT naming the field, before psql runs', async () => {
    const envelope = await lift(PASSWORD).invoke('postgres_query', { sql: "SELECT 1\0; SELECT 'x'" });
    if (!isError(envelope)) throw new Error(JSON.stringify(envelope));
    expect(envelope.error).toMatchObject({ code: 'BAD_INPUT', outcome: 'not_started' });
    expect(envelope.error.details?.fields).toEqual(['sql']);
  });

  it('caps a large result and says how to narrow it', async () => {
    const envelope = await lift(PASSWORD).invoke('postgres_query', {
      sql: 'SELECT * FROM stock ORDER BY sku',
      max_rows: 25,
    });
    if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope));
    expect((envelope.fields.rows as unknown[]).length).toBe(25);
    expect(envelope.fields.row_count).toBe(3000);
    expect(envelope.truncated).toBe(true);
    expect(envelope.narrow).toBeTruthy();
  });

  it('a wrong password is AUTH_REQUIRED within a second, and the password appears nowhere Lift writes', async () => {
    const runtime = lift('wrong-password-123');
    const started = performance.now();
    const envelope = await runtime.invoke('postgres_query', { sql: 'SELECT 1' });
    expect(performance.now() - started).toBeLessThan(1_000 + (await startupMs('psql', ['--version'])));
    expect(isError(envelope) && envelope.error.code).toBe('AUTH_REQUIRED');
    const ok = lift(PASSWORD);
    const good: Envelope = await ok.invoke('postgres_query', { sql: 'SELECT 1 AS one' });
    expect(JSON.stringify(good)).not.toContain(PASSWORD);
    expect(writtenFiles(ok.home)).not.toContain(PASSWORD);
  });

  it('a missing password is AUTH_REQUIRED at once, before psql runs', async () => {
    const started = performance.now();
    const envelope = await lift().invoke('postgres_query', { sql: 'SELECT 1' });
    expect(performance.now() - started).toBeLessThan(1_000);
    if (!isError(envelope)) throw new Error(JSON.stringify(envelope));
    expect(envelope.error.code).toBe('AUTH_REQUIRED');
    expect(envelope.error.outcome).toBe('not_started');
  });

  it('psql left to ask for the password itself is caught as AUTH_REQUIRED, not a hang', async () => {
    const startup = await startupMs('psql', ['--version']);
    const { error, ms } = await failure(
      runWrapped({
        program: 'psql',
        args: [
          '-X',
          '-h',
          '127.0.0.1',
          '-p',
          String(server.port),
          '-U',
          'reader',
          '-d',
          'postgres',
          '-c',
          'SELECT 1',
        ],
        deadline: Date.now() + 30_000,
      }),
    );
    expect(error.code).toBe('AUTH_REQUIRED');
    expect(ms).toBeLessThan(1_000 + startup);
  });

  it('a write is refused by the read-only transaction (POLICY_BLOCKED) and a bad query is BAD_INPUT', async () => {
    const runtime = lift(PASSWORD);
    const write = await runtime.invoke('postgres_query', { sql: 'DELETE FROM stock' });
    expect(isError(write) && write.error.code).toBe('POLICY_BLOCKED');
    const bad = await runtime.invoke('postgres_query', { sql: 'SELECT * FROM no_such_table' });
    if (!isError(bad)) throw new Error(JSON.stringify(bad));
    expect(bad.error.code).toBe('BAD_INPUT');
    expect(bad.error.message).toContain('relation "no_such_table" does not exist');
  });
});
