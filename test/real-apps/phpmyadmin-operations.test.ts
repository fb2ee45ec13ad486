import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import type { SignInRecipe } from '../../src/rungs/ui/sign-in.js';
import { type PhpMyAdminApp, startApp } from './bed.js';
import { discoverRegisterReplay, formatRecord, type Operation, type OperationRecord } from './operations.js';

let app: PhpMyAdminApp;
let browser: Browser;
const records: OperationRecord[] = [];
// A discovery, a registration through the CLI and three replays with a reset each: minutes under load.
const OPERATION_TIMEOUT_MS = 360_000;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('phpmyadmin'), launchBrowser()]);
});

afterAll(async () => {
  for (const record of records) console.log(formatRecord(record));
  await browser?.close();
  await app?.stop();
});

// The login form has a Language select before Username and Password: the recipe names its fields.
const SIGN_IN: Partial<SignInRecipe> = {
  fields: [
    {
      target: { frame: [], locator: { by: 'field', label: 'Username' } },
      value: { literal: 'shopadmin' },
      op: 'fill',
    },
    {
      target: { frame: [], locator: { by: 'field', label: 'Password' } },
      value: { secret: 'phpmyadmin_password' },
      op: 'fill',
    },
  ],
  submit: { click: { frame: [], locator: { by: 'role', role: 'button', name: 'Log in' } } },
  success: { visible: { frame: [], locator: { by: 'role', role: 'link', name: 'Log out' } } },
};

const BROWSE_CUSTOMERS = '/index.php?route=/sql&db=shop&table=customers';
const BROWSE_ORDERS = '/index.php?route=/sql&db=shop&table=orders';

/** Looks up a customer's email in the Browse table by the id column (a read). */
const customerEmail: Operation<PhpMyAdminApp> = {
  name: 'phpmyadmin_customer_email',
  intent: "Look up a customer's email address by the customer's id",
  effect: 'read',
  inputs: [{ name: 'id', type: 'string' }],
  outputs: [{ name: 'email', type: 'string' }],
  startPath: BROWSE_CUSTOMERS,
  bound: { id: '3' },
  signIn: SIGN_IN,
  async explore(moves) {
    const page = await moves.observe();
    expect(page).toMatch(/table \(12 rows\): .*\| id \| name \| email \|/);
    const row = { by: 'cell', key: 'id', row: '{{input.id}}' };
    await moves.act([{ op: 'read', target: { locator: { ...row, column: 'email' } }, as: 'email' }]);
    await moves.complete({
      outputs: ['email'],
      checkpoint: { target: { locator: { ...row, column: 'id' } }, input: 'id' },
    });
  },
  cases: ['2', '7', '12'].map((id) => ({
    inputs: { id },
    check: async (bed, result) => result.outputs.email === (await bed.state.customer(Number(id)))?.email,
  })),
};

/** Reads an order's status by its id, among 60 orders shown 25 a page (a read). */
const orderStatus: Operation<PhpMyAdminApp> = {
  name: 'phpmyadmin_order_status',
  intent: "Read an order's status by the order's id",
  effect: 'read',
  inputs: [{ name: 'id', type: 'string' }],
  outputs: [{ name: 'status', type: 'string' }],
  startPath: BROWSE_ORDERS,
  bound: { id: '5' },
  signIn: SIGN_IN,
  async explore(moves) {
    const page = await moves.observe({ find: { match: '{{input.id}}' } });
    expect(page).toMatch(/\| id \| customer_id \| .*\| status \|/);
    const row = { by: 'cell', key: 'id', row: '{{input.id}}' };
    await moves.act([{ op: 'read', target: { locator: { ...row, column: 'status' } }, as: 'status' }]);
    await moves.complete({
      outputs: ['status'],
      checkpoint: { target: { locator: { ...row, column: 'id' } }, input: 'id' },
    });
  },
  cases: ['3', '17', '24'].map((id) => ({
    inputs: { id },
    check: async (bed, result) => result.outputs.status === (await bed.state.order(Number(id)))?.status,
  })),
};

/**
 * Inserts a customer through the Insert tab (a write other users of the database see). The
 * form's value boxes have no label: each is the box in the Value column of its column's row,
 * in the first of the two row forms phpMyAdmin shows.
 */
const addCustomer: Operation<PhpMyAdminApp> = {
  name: 'phpmyadmin_customer_add',
  intent: 'Insert a customer with a name, an email and a city, and return the new id',
  effect: 'visible',
  inputs: [
    { name: 'name', type: 'string' },
    { name: 'email', type: 'string' },
    { name: 'city', type: 'string' },
  ],
  outputs: [{ name: 'id', type: 'integer' }],
  startPath: BROWSE_CUSTOMERS,
  bound: { name: 'Smoke Test GmbH', email: 'smoke@bed.test', city: 'Graz' },
  signIn: SIGN_IN,
  async explore(moves) {
    const start = await moves.observe();
    await moves.act([{ op: 'click', target: moves.ref(start, 'link', 'Insert Insert') }]);
    const form = await moves.observe();
    expect(form).toMatch(/table \(\d+ rows\): Column \| Type \| Function \| Null \| Value/);
    const value = (column: string) => ({
      locator: { by: 'cell', key: 'Column', row: column, column: 'Value', element: { role: 'textbox' } },
      // Two row forms, the second ignored: the first one's box.
      nth: 1,
    });
    await moves.act([
      { op: 'fill', target: value('name'), value: { input: 'name' } },
      { op: 'fill', target: value('email'), value: { input: 'email' } },
      { op: 'fill', target: value('city'), value: { input: 'city' } },
    ]);
    const filled = await moves.observe();
    // The form's last row: its buttons, the submit last.
    const go = /\| \[[a-z0-9]+\] ?\[[a-z0-9]+\] ?\[([a-z0-9]+)\] Preview SQL Reset Go \|/.exec(filled)?.[1];
    expect(go, filled).toBeDefined();
    await moves.act([{ op: 'click', target: { ref: go! } }]);
    const inserted = await moves.observe();
    expect(inserted).toContain('1 row inserted');
    await moves.act([{ op: 'click', target: moves.ref(inserted, 'link', 'Browse Browse') }]);
    const browse = await moves.observe({ find: { match: '{{input.email}}' } });
    expect(browse).toContain('| ⟦input:name⟧ | ⟦input:email⟧ | ⟦input:city⟧ |');
    const row = { by: 'cell', key: 'email', row: '{{input.email}}' };
    await moves.act([{ op: 'read', target: { locator: { ...row, column: 'id' } }, as: 'id' }]);
    await moves.complete({
      outputs: ['id'],
      checkpoint: {
        target: { locator: { ...row, column: 'email' } },
        input: 'email',
        values: [
          { target: { locator: { ...row, column: 'name' } }, input: 'name' },
          { target: { locator: { ...row, column: 'city' } }, input: 'city' },
        ],
      },
    });
  },
  cases: [
    ['Harbor Freight Co', 'ops@harbor.test', 'Bergen'],
    ['Kiosk 7', 'k7@kiosk.test', 'Turin'],
    ['Éclair Café', 'bonjour@eclair.test', 'Nantes'],
  ].map(([name, email, city]) => ({
    inputs: { name: name!, email: email!, city: city! },
    check: async (bed, result) => {
      const customer = await bed.state.customerByEmail(email!);
      return customer?.name === name && customer?.city === city && result.outputs.id === customer?.id;
    },
  })),
};

/** Deletes an order by its id with the row's Delete action (irreversible: the row is gone). */
const deleteOrder: Operation<PhpMyAdminApp> = {
  name: 'phpmyadmin_order_delete',
  intent: 'Delete an order by its id and return the message phpMyAdmin shows',
  effect: 'irreversible',
  inputs: [{ name: 'id', type: 'string' }],
  outputs: [{ name: 'message', type: 'string' }],
  startPath: BROWSE_ORDERS,
  bound: { id: '6' },
  signIn: SIGN_IN,
  async explore(moves) {
    const page = await moves.observe({ find: { match: '{{input.id}}' } });
    // The first header spans the row actions (checkbox, Edit, Copy, Delete).
    const remove = /\| \[([a-z0-9]+)\] Delete Delete \| ⟦input:id⟧ \|/.exec(page)?.[1];
    expect(remove, page).toBeDefined();
    await moves.act([{ op: 'click', target: { ref: remove! } }]);
    const done = await moves.observe();
    // The result page shows the statement it ran, with the id, and its message.
    expect(done, done).toMatch(/! alert: 1 row deleted\./);
    expect(done).toContain('FROM `orders` WHERE `orders`.`id` = ⟦input:id⟧');
    // The alert has no name of its own: it is the page's one alert. The statement reads as
    // its link and the text after it.
    const read = await moves.act([
      { op: 'read', target: { locator: { by: 'role', role: 'alert', name: '' } }, as: 'message' },
    ]);
    expect(read[0]?.status, JSON.stringify(read)).toBe('executed');
    const completed = await moves.complete({
      outputs: ['message'],
      checkpoint: {
        target: { locator: { by: 'text', text: 'DELETE FROM `orders` WHERE `orders`.`id` = {{input.id}}' } },
        input: 'id',
        match: 'contains',
      },
    });
    expect(completed.ok, JSON.stringify(completed)).toBe(true);
  },
  cases: ['7', '12', '20'].map((id) => ({
    inputs: { id },
    check: async (bed, result) =>
      (await bed.state.order(Number(id))) === undefined &&
      (await bed.state.count('orders')) === 59 &&
      String(result.outputs.message).startsWith('1 row deleted.'),
  })),
};

describe('phpMyAdmin operations, discovered by a scripted explorer and replayed on new inputs', () => {
  for (const [title, operation] of [
    ['looks up a row by a key column (a read, a header spanning the row actions)', customerEmail],
    ['reads a value of a paged table by its id (a read)', orderStatus],
    ['inserts a row through unlabelled value boxes (a visible write)', addCustomer],
    ['deletes a row by its id (an irreversible write)', deleteOrder],
  ] as const) {
    it(
      title,
      async () => {
        const { record, log } = await discoverRegisterReplay(app, browser, operation);
        records.push(record);
        expect(record.failures, JSON.stringify(log.slice(1), null, 1).slice(0, 4000)).toEqual([]);
        expect(record.correct).toBe(3);
      },
      OPERATION_TIMEOUT_MS,
    );
  }
});
