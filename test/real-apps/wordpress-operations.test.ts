import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { startApp, type WordPressApp } from './bed.js';
import { discoverRegisterReplay, formatRecord, type Operation, type OperationRecord } from './operations.js';

let app: WordPressApp;
let browser: Browser;
const records: OperationRecord[] = [];

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

describe('WordPress operations, discovered by a scripted explorer and replayed on new inputs', () => {
  it('looks up a user email by login (a read, short logins, a key column)', async () => {
    const { record, log } = await discoverRegisterReplay(app, browser, userEmail);
    records.push(record);
    expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 3000)).toEqual([]);
    expect(record.correct).toBe(3);
  });
});
