import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredSignIn } from '../../src/replay/sign-ins.js';
import { parseSignInRecipe } from '../../src/rungs/ui/sign-in.js';
import { openPool, transaction } from '../../src/store/postgres/connection.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { thisProcess } from '../../src/store/processes.js';
import { openStore, type Store } from '../../src/store/store.js';
import { type SharedPostgres, startSharedPostgres } from '../support/postgres-server.js';
import { tempDir } from '../support/temp.js';

const STORE_MODULE = join(import.meta.dirname, '..', '..', 'src', 'store', 'postgres', 'store.ts');
const home = tempDir('lift-shared-store-');
let server: SharedPostgres;
const stores: Store[] = [];

async function open(kind: 'sqlite' | 'postgres', name: string): Promise<Store> {
  const store =
    kind === 'sqlite'
      ? openStore(join(home.path, name))
      : await openPostgresStore(join(home.path, name), server.url());
  stores.push(store);
  return store;
}

beforeAll(async () => {
  server = await startSharedPostgres();
}, 120_000);

afterAll(async () => {
  for (const store of stores) await store.close();
  server?.stop();
  home.remove();
});

describe.each(['sqlite', 'postgres'] as const)('the %s store, through the one store interface', (kind) => {
  it('claims a request id once, answers a repeat with the first envelope, and refuses other input', async () => {
    const store = await open(kind, `${kind}-ledger`);
    expect(await store.ledger.claim('t', 'req-1', 'h1')).toEqual({ kind: 'claimed' });
    expect(await store.ledger.claim('t', 'req-1', 'h1')).toEqual({ kind: 'in_flight' });
    await store.ledger.finish('t', 'req-1', '{"ok":true}');
    expect(await store.ledger.claim('t', 'req-1', 'h1')).toEqual({ kind: 'done', envelope: '{"ok":true}' });
    expect(await store.ledger.claim('t', 'req-1', 'h2')).toEqual({ kind: 'reused' });
    await store.ledger.forget('t', 'req-1');
    expect(await store.ledger.state('t', 'req-1')).toBeUndefined();
  });

  it('lets exactly one approver take a held call, and counts two surface failures into the switch', async () => {
    const store = await open(kind, `${kind}-approvals`);
    const held = await store.approvals.hold({
      tool: 't',
      input: { input: { a: 1 }, masks: [] },
      inputHash: 'h',
      requestId: 'req-ap',
      gate: 'review',
      preview: 'p',
      phrase: undefined,
    });
    const owner = thisProcess();
    const takes = await Promise.all([1, 2, 3].map(() => store.approvals.take(held.id, 'x', owner)));
    expect(takes.filter(Boolean)).toHaveLength(1);
    expect((await store.approvals.get(held.id))?.state).toBe('approved');
    await store.registrations.register({ name: 'cap', revision: 'a'.repeat(64), effectClass: 'read' });
    expect(await store.registrations.recordSurfaceChanged('cap', 'moved')).toBe(false);
    expect(await store.registrations.recordSurfaceChanged('cap', 'moved')).toBe(true);
    expect((await store.registrations.get('cap'))?.enabled).toBe(false);
  });

  it('holds an approved call again when its program could not be reached, for another yes, and binds a signature to the input', async () => {
    const store = await open(kind, `${kind}-held-again`);
    const held = await store.approvals.hold({
      tool: 'purge',
      input: { input: { b: 2 }, masks: [] },
      inputHash: 'h',
      requestId: 'req-again',
      gate: 'signature',
      preview: 'p',
      phrase: undefined,
    });
    expect(held.phrase).toBe(`purge ${held.inputDigest}`);
    const owner = thisProcess();
    expect(await store.approvals.take(held.id, 'x', owner)).toBe(true);
    await store.approvals.holdAgain(held.id, '{"ok":false}');
    expect(await store.approvals.get(held.id)).toMatchObject({
      state: 'pending',
      envelope: '{"ok":false}',
      decidedBy: undefined,
      owner: undefined,
    });
    expect(await store.approvals.take(held.id, 'y', owner)).toBe(true);
    await store.approvals.recordExecution(held.id, '{"ok":true}');
    // Only an approved call is held again: one that ran stays ran.
    await store.approvals.holdAgain(held.id, '{"ok":false}');
    expect(await store.approvals.get(held.id)).toMatchObject({ state: 'executed', envelope: '{"ok":true}' });
  });

  it("keeps a registration's whole sign-in recipe, and replaces it when registered again", async () => {
    const store = await open(kind, `${kind}-sign-in`);
    const recipe = parseSignInRecipe({
      fields: [
        { target: { locator: { by: 'field', label: 'Username' } }, value: { literal: 'shopadmin' } },
        { target: { locator: { by: 'field', label: 'Password' } }, value: { secret: 'shop_password' } },
      ],
      submit: { click: { locator: { by: 'role', role: 'button', name: 'Log in' } } },
      page: '/index.php',
    });
    const entry = { name: 'shop_row_insert', revision: 'b'.repeat(64), effectClass: 'visible' } as const;
    const registered = await store.registrations.register({ ...entry, signIn: recipe });
    expect(registeredSignIn(registered)).toEqual(recipe);
    expect(registeredSignIn((await store.registrations.get(entry.name))!)).toEqual(recipe);
    await store.registrations.register(entry);
    expect((await store.registrations.get(entry.name))?.signIn).toBeUndefined();
  });

  it('keeps run events and reads them back, scrubbed, after a flush', async () => {
    const store = await open(kind, `${kind}-runs`);
    const id = store.runs.newId();
    store.runs.record(
      id,
      'call',
      'a call',
      [{ t: new Date().toISOString(), type: 'call-start', tool: 't' }],
      true,
    );
    expect((await store.runs.get(id))?.events).toBe(1);
    expect((await store.runs.events(id)).map((event) => event.type)).toEqual(['call-start']);
  });
});

describe('the shared store across processes', () => {
  it('never lets two processes both claim one request id (200 ids raced by 4 processes)', async () => {
    // .mts: a module wherever the temp folder is (top-level await), whatever package.json is above it.
    const script = join(home.path, 'race.mts');
    writeFileSync(
      script,
      `const { openPostgresStore } = await import(${JSON.stringify(STORE_MODULE)});
       const store = await openPostgresStore(process.argv[2], process.argv[3]);
       const won = [];
       await Promise.all(Array.from({ length: 200 }, async (_, i) => {
         const claim = await store.ledger.claim('race', 'race-' + i, 'same');
         if (claim.kind === 'claimed') won.push(i);
       }));
       process.send(won);
       await store.close();`,
    );
    const racers = Array.from(
      { length: 4 },
      (_, index) =>
        new Promise<number[]>((resolve, reject) => {
          const child = fork(script, [join(home.path, `racer-${index}`), server.url()], {
            execArgv: ['--import', 'tsx'],
          });
          child.once('message', (won) => resolve(won as number[]));
          child.once('error', reject);
          child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`racer exited ${code}`))));
        }),
    );
    const won = (await Promise.all(racers)).flat();
    expect(won).toHaveLength(200);
    expect(new Set(won).size).toBe(200);
  }, 120_000);

  it('survives a connection error arriving the moment a transaction is handed its client', async () => {
    // A fast shutdown's FATAL message can be parsed in the same chunk as the reply that freed a
    // pooled client, after the pool handed it to a waiting transaction and before that
    // transaction resumed: an error event on a client nobody listened to ended the process (CI).
    const pool = openPool(server.url(), 1);
    try {
      await pool.query('SELECT 1');
      // The pool hands the client over in a tick of its own; a tick queued from its acquire
      // event runs before the awaiting transaction resumes, where a parsed FATAL message would.
      const emitted = new Promise<unknown>((resolve) => {
        pool.once('acquire', (client: pg.PoolClient) =>
          process.nextTick(() => {
            try {
              client.emit('error', new Error('terminating connection due to administrator command'));
              resolve(undefined);
            } catch (error) {
              resolve(error);
            }
          }),
        );
      });
      const running = transaction(pool, (sql) => sql.query('SELECT 1'));
      expect(await emitted).toBeUndefined();
      await expect(running).resolves.toBeDefined();
    } finally {
      await pool.end();
    }
  });

  it('goes on through a server restart: a claim made while the server is down lands once it is back', async () => {
    const store = await open('postgres', 'restart');
    expect(await store.ledger.claim('t', 'before-restart', 'h')).toEqual({ kind: 'claimed' });
    const restarting = new Promise((resolve) => setTimeout(resolve, 10)).then(() => server.restart());
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.ledger.claim('t', `during-restart-${i}`, 'h')),
    );
    await restarting;
    expect(claims.every((claim) => claim.kind === 'claimed')).toBe(true);
    await store.ledger.finish('t', 'before-restart', '{}');
    expect(await store.ledger.state('t', 'before-restart')).toBe('done');
  }, 120_000);
});
