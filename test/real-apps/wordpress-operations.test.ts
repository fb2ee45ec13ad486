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

/** Looks up who wrote a post in the Posts list by the Title column (a read). */
const postAuthor: Operation<WordPressApp> = {
  name: 'wordpress_post_author',
  intent: "Look up the author of a WordPress post by the post's title",
  effect: 'read',
  inputs: [{ name: 'title', type: 'string' }],
  outputs: [{ name: 'author', type: 'string' }],
  startPath: '/wp-admin/edit.php',
  bound: { title: 'Release 2.0 notes' },
  async explore(moves) {
    const page = await moves.observe();
    expect(page, page).toMatch(/table "Posts list" .*\| Title \| Author \|/);
    const row = { by: 'cell', table: 'Posts list', key: 'Title', row: '{{input.title}}' };
    await moves.act([{ op: 'read', target: { locator: { ...row, column: 'Author' } }, as: 'author' }]);
    const done = await moves.complete({
      outputs: ['author'],
      checkpoint: { target: { locator: { ...row, column: 'Title' } }, input: 'title', match: 'contains' },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  // "Published" is also the name of a status filter above the list.
  cases: ['Contact form returns 500', 'Published', 'Quarterly report'].map((title) => ({
    inputs: { title },
    check: async (bed, result) => {
      const post = await bed.state.postByTitle(title);
      const author = (await bed.state.users()).find((user) => user.id === post?.authorId);
      return author !== undefined && result.outputs.author === author.name;
    },
  })),
};

const TRASH = '/wp-admin/edit.php?post_status=trash&post_type=post';

/**
 * Deletes a trashed post for good (irreversible), found by its title through the Trash's own
 * search. Called as a person's agent calls it: held at the signature gate, run once approved.
 */
const deleteTrashed: Operation<WordPressApp> = {
  name: 'wordpress_post_delete_permanently',
  intent: 'Permanently delete a post that is in the trash, by its title',
  effect: 'irreversible',
  inputs: [{ name: 'title', type: 'string' }],
  outputs: [
    { name: 'message', type: 'string' },
    { name: 'found', type: 'string', description: 'what the Trash lists for the title afterwards' },
  ],
  startPath: TRASH,
  bound: { title: 'Old pricing announcement' },
  throughGate: {
    untouched: async (bed, inputs) => (await bed.state.postByTitle(inputs.title!))?.status === 'trash',
  },
  async explore(moves) {
    await moves.act([{ op: 'navigate', url: `${TRASH}&s={{input.title}}` }]);
    const found = await moves.observe();
    // The row's action names the post: WordPress labels it for screen readers.
    await moves.act([
      { op: 'click', target: moves.ref(found, 'link', 'Delete “⟦input:title⟧” permanently') },
    ]);
    const done = await moves.observe();
    // WordPress comes back to the same search: its notice, and a Trash that no longer holds the title.
    expect(done, done).toContain('1 post permanently deleted.');
    expect(done).toContain('Search results for:\n⟦input:title⟧');
    expect(done).toContain('| No posts found in Trash. |');
    const read = await moves.act([
      { op: 'read', target: { locator: { by: 'text', text: '1 post permanently deleted.' } }, as: 'message' },
      { op: 'read', target: { locator: { by: 'text', text: 'No posts found in Trash.' } }, as: 'found' },
    ]);
    expect(
      read.map((result) => result.status),
      JSON.stringify(read),
    ).toEqual(['executed', 'executed']);
    const completed = await moves.complete({
      outputs: ['message', 'found'],
      // The page searched the Trash for this title: the search's heading names it.
      checkpoint: { target: { locator: { by: 'text', text: '{{input.title}}' } }, input: 'title' },
    });
    expect(completed.ok, JSON.stringify(completed)).toBe(true);
  },
  cases: ['Test post, please ignore', 'Meeting notes 2', 'Spam: win a prize'].map((title) => ({
    inputs: { title },
    check: async (bed, result) =>
      (await bed.state.postByTitle(title)) === undefined &&
      (await bed.state.posts()).filter((post) => post.status === 'trash').length === 3 &&
      result.outputs.message === '1 post permanently deleted.' &&
      result.outputs.found === 'No posts found in Trash.',
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
    "looks up a post's author by its title (a read, a title that is a status filter's name)",
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, postAuthor);
      records.push(record);
      expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 3000)).toEqual([]);
      expect(record.correct).toBe(3);
    },
    OPERATION_TIMEOUT_MS,
  );

  it(
    'deletes a trashed post for good, held for a signature and run once approved (an irreversible write)',
    async () => {
      const { record, log } = await discoverRegisterReplay(app, browser, deleteTrashed);
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
