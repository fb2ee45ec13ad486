import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { startApp, type WordPressApp } from './bed.js';
import { discoverRegisterReplay, formatRecord, type Operation, type OperationRecord } from './operations.js';

let app: WordPressApp;
let browser: Browser;
const records: OperationRecord[] = [];
// A discovery, a registration through the CLI and three replays with a reset each: minutes under load.
const OPERATION_TIMEOUT_MS = 360_000;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('wordpress'), launchBrowser()]);
});

afterAll(async () => {
  for (const record of records) console.log(formatRecord(record));
  await browser?.close();
  await app?.stop();
});

/** Looks up a user's email in the Users list by the Username column (a read). */
const userEmail: Operation<WordPressApp> = {
  name: 'wordpress_user_email',
  intent: "Look up a WordPress user's email address by login",
  effect: 'read',
  inputs: [{ name: 'login', type: 'string' }],
  outputs: [{ name: 'email', type: 'string' }],
  startPath: '/wp-admin/users.php',
  bound: { login: 'jdoe' },
  async explore(moves) {
    const page = await moves.observe();
    expect(page).toMatch(/table "Users list" .*\| Username \| .*\| Email \|/);
    const row = { by: 'cell', table: 'Users list', key: 'Username', row: '{{input.login}}' };
    await moves.act([{ op: 'read', target: { locator: { ...row, column: 'Email' } }, as: 'email' }]);
    await moves.complete({
      outputs: ['email'],
      checkpoint: { target: { locator: { ...row, column: 'Username' } }, input: 'login', match: 'contains' },
    });
  },
  cases: ['al', 'user', 'bob'].map((login) => ({
    inputs: { login },
    check: async (bed, result) => result.outputs.email === (await bed.state.userByLogin(login))?.email,
  })),
};

/**
 * Adds a user with a role through Users > Add New (a visible write). The form has a password
 * field (prefilled, and no sign-in), and discovery binds the role the select already holds.
 */
const addUser: Operation<WordPressApp> = {
  name: 'wordpress_user_add',
  intent: 'Add a WordPress user with a login, an email and a role, and return the role shown and the new id',
  effect: 'visible',
  inputs: [
    { name: 'login', type: 'string' },
    { name: 'email', type: 'string' },
    { name: 'role', type: 'string', description: 'Subscriber, Contributor, Author, Editor or Administrator' },
  ],
  outputs: [
    { name: 'shownRole', type: 'string' },
    { name: 'userId', type: 'integer' },
  ],
  startPath: '/wp-admin/user-new.php',
  bound: { login: 'carol', email: 'carol@northwind.test', role: 'Subscriber' },
  async explore(moves) {
    const form = await moves.observe();
    expect(form).toContain('state: ready');
    await moves.act([
      { op: 'fill', target: moves.ref(form, 'textbox', 'Username (required)'), value: { input: 'login' } },
      { op: 'fill', target: moves.ref(form, 'textbox', 'Email (required)'), value: { input: 'email' } },
      { op: 'select', target: moves.ref(form, 'combobox', 'Role'), value: { input: 'role' } },
      { op: 'click', target: moves.ref(form, 'button', 'Add New User') },
    ]);
    const list = await moves.observe({ find: { match: '{{input.login}}' } });
    expect(list).toMatch(/\| Username \| .*\| Role \|/);
    const row = { by: 'cell', key: 'Username', row: '{{input.login}}' };
    await moves.act([{ op: 'read', target: { locator: { ...row, column: 'Role' } }, as: 'shownRole' }]);
    const done = await moves.complete({
      outputs: ['shownRole', 'userId'],
      // The created user's id: WordPress lands on users.php?update=add&id=N.
      from: { userId: { url: { param: 'id' } } },
      checkpoint: {
        target: { locator: { ...row, column: 'Email' } },
        input: 'email',
        // A write reads back what it wrote: the login and the role, in the user's row.
        values: [
          { target: { locator: { ...row, column: 'Username' } }, input: 'login', match: 'contains' },
          { target: { locator: { ...row, column: 'Role' } }, input: 'role' },
        ],
      },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: [
    ['dave', 'Editor'],
    ['erin', 'Contributor'],
    ['fy', 'Author'],
  ].map(([login, role]) => ({
    inputs: { login: login!, email: `${login}@northwind.test`, role: role! },
    check: async (bed, result) => {
      const user = await bed.state.userByLogin(login!);
      return (
        user?.email === `${login}@northwind.test` &&
        user.roles.join() === role!.toLowerCase() &&
        result.outputs.shownRole === role &&
        result.outputs.userId === user.id
      );
    },
  })),
};

describe('WordPress operations, discovered by a scripted explorer and replayed on new inputs', () => {
  it(
    'looks up a user email by login (a read, short logins, a key column)',
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, userEmail);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 3000)).toEqual([]);
      expect(record.correct).toBe(3);
    },
    OPERATION_TIMEOUT_MS,
  );

  it(
    'adds a user with a role (a visible write on a page with a password field)',
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, addUser);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 3000)).toEqual([]);
      expect(record.correct).toBe(3);
    },
    OPERATION_TIMEOUT_MS,
  );
});
