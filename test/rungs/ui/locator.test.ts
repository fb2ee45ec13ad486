import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeTarget } from '../../../src/replay/targets.js';
import { launchBrowser } from '../../../src/rungs/ui/browser.js';
import { resolveTarget, type Target } from '../../../src/rungs/ui/locator.js';

// Shaped like real admin tables: a "Select all" column whose header is a td, no caption
// (only a heading above), a record link plus row actions in the key cell, and an id that
// is also another row's customer id.
const ORDERS = `
<h2>Orders list</h2>
<table>
  <thead><tr><td><input type="checkbox" aria-label="Select all"></td><th>Id</th><th>Customer</th><th>Status</th></tr></thead>
  <tbody>
    <tr><td><input type="checkbox" aria-label="Select 3"></td><td><a href="#3">3</a><div>Edit | Delete</div></td><td>7</td><td>paid</td></tr>
    <tr><td><input type="checkbox" aria-label="Select 4"></td><td><a href="#4">4</a><div>Edit | Delete</div></td><td>3</td><td>new</td></tr>
  </tbody>
</table>`;

// Shaped like phpMyAdmin's Browse table: one header, named only by its image's alt text,
// spans the four action columns of every row (checkbox, Edit, Copy, Delete).
const CUSTOMERS = `
<table>
  <thead><tr><th colspan="4"><img alt="Full texts" src="data:,"></th><th>id</th><th>name</th><th>email</th></tr></thead>
  <tbody>
    <tr><td><input type="checkbox"></td><td><a href="#e1">Edit</a></td><td><a href="#c1">Copy</a></td><td><a href="#d1">Delete</a></td><td>1</td><td>Acme</td><td>orders@acme.test</td></tr>
    <tr><td><input type="checkbox"></td><td><a href="#e3">Edit</a></td><td><a href="#c3">Copy</a></td><td><a href="#d3">Delete</a></td><td>3</td><td>Jane Doe</td><td>jane@mail.test</td></tr>
  </tbody>
</table>`;

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.setContent(`${ORDERS}${CUSTOMERS}`);
});
afterAll(async () => {
  await browser?.close();
});

const cell = (locator: { row: string; column: string; key?: string; table?: string }): Target => ({
  frame: [],
  locator: { by: 'cell', ...locator },
});

describe('cell locators on real tables', () => {
  it('finds the row whose key column holds the value, not a row with any cell equal to it', async () => {
    const target = cell({ key: 'Id', row: '3', column: 'Status' });
    // biome-ignore lint/performance/useDomNodeTextContent: the cell's shown text, as replay reads it
    expect(await (await resolveTarget(page, target)).innerText()).toBe('paid');
    expect(await probeTarget(page, target, { text: true })).toMatchObject({ count: 1, text: 'paid' });
    // Any cell equal to 3: order 4, whose customer is 3 (the wrong row a key column avoids).
    const anyCell = await probeTarget(page, cell({ row: '3', column: 'Status' }), { text: true });
    expect(anyCell.text).toBe('new');
  });

  it('counts a td header cell, so columns after a checkbox column line up', async () => {
    const target = cell({ key: 'Id', row: '4', column: 'Customer' });
    expect(await probeTarget(page, target, { text: true })).toMatchObject({ count: 1, text: '3' });
  });

  it('resolves the table by the name observe prints: the heading above it', async () => {
    const named = cell({ table: 'Orders list', key: 'Id', row: '4', column: 'Status' });
    expect(await probeTarget(page, named, { text: true })).toMatchObject({ count: 1, text: 'new' });
    const other = cell({ table: 'Customers list', key: 'Id', row: '4', column: 'Status' });
    expect((await probeTarget(page, other)).count).toBe(0);
  });

  it('counts each header by its colspan, so columns after a spanning header line up', async () => {
    const email = cell({ key: 'id', row: '3', column: 'email' });
    expect(await probeTarget(page, email, { text: true })).toMatchObject({
      count: 1,
      text: 'jane@mail.test',
    });
    expect(await (await resolveTarget(page, email)).textContent()).toBe('jane@mail.test');
  });

  it('finds an element in the cells under a spanning header named by an image', async () => {
    const edit: Target = {
      frame: [],
      locator: {
        by: 'cell',
        key: 'id',
        row: '3',
        column: 'Full texts',
        element: { role: 'link', name: 'Delete' },
      },
    };
    const link = await resolveTarget(page, edit);
    expect(await link.count()).toBe(1);
    expect(await link.getAttribute('href')).toBe('#d3');
  });
});

describe('text locators', () => {
  it('match the text a person reads, not a hidden copy of it (a console logging each query)', async () => {
    const shown = await browser.newPage();
    try {
      await shown.setContent(`
        <div role="alert">1 row deleted.</div><code>DELETE FROM orders WHERE id = 7</code>
        <div id="console" style="display:none"><div>DELETE FROM orders WHERE id = 7</div></div>`);
      const statement: Target = {
        frame: [],
        locator: { by: 'text', text: 'DELETE FROM orders WHERE id = 7' },
      };
      expect(await probeTarget(shown, statement, { text: true })).toMatchObject({
        count: 1,
        text: 'DELETE FROM orders WHERE id = 7',
      });
    } finally {
      await shown.close();
    }
  });
});

describe('the nth of several cells', () => {
  it('is one match, though its row value is in several rows (phpMyAdmin shows two insert forms)', async () => {
    const form = (index: number) => `
      <table><thead><tr><th>Column</th><th>Type</th><th>Value</th></tr></thead><tbody>
        <tr><td>name</td><td>varchar(80)</td><td><input name="name${index}"></td></tr>
        <tr><td>city</td><td>varchar(80)</td><td><input name="city${index}"></td></tr>
      </tbody></table>`;
    const insert = await browser.newPage();
    try {
      await insert.setContent(`${form(0)}${form(1)}`);
      const box: Target = {
        frame: [],
        locator: { by: 'cell', key: 'Column', row: 'name', column: 'Value', element: { role: 'textbox' } },
        nth: 1,
      };
      const probe = await probeTarget(insert, box);
      expect(probe.count).toBe(1);
      expect(await probe.locator.getAttribute('name')).toBe('name0');
    } finally {
      await insert.close();
    }
  });
});
