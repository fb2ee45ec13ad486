import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { lookAtKeyedRows } from '../../../src/rungs/ui/keyed-rows.js';
import { cellRows, lookAtRows } from '../../../src/rungs/ui/locator.js';
import { itWithPage as it } from '../../support/browser-page.js';

// WordPress's users table and phpMyAdmin's browse table, as real pages write them: a key cell
// holding the record link and its row actions, a header spanning the action columns.
const USERS = `<h2>Users</h2><table>
  <thead><tr><td><input type="checkbox" aria-label="Select all"></td><th>Username</th><th>Email</th></tr></thead>
  <tbody>
    <tr><td><input type="checkbox"></td><td><a href="#1">admin</a><div style="position: relative; left: -9999em">Edit | Delete</div></td><td>admin@shop.test</td></tr>
    <tr><td><input type="checkbox"></td><td><a href="#2">al</a> <script>var x = 1;</script></td><td>al@shop.test</td></tr>
    <tr style="display: none"><td></td><td>ghost</td><td>ghost@shop.test</td></tr>
  </tbody></table>
<table><thead><tr><th colspan="2">Actions</th><th>id</th><th>email</th></tr></thead>
  <tbody><tr><td>e</td><td>d</td><td> 7 </td><td>seven@shop.test</td></tr><tr><td>e</td><td>d</td><td>8</td><td>eight@shop.test</td></tr></tbody></table>`;

/** The look through Playwright's locator alone, and the look that starts in the frame. */
async function bothLooks(page: Page, row: string, column: string, key: string, table?: string) {
  const {
    rows,
    column: span,
    keyColumn,
  } = await cellRows(page, { by: 'cell', row, column, key, ...(table ? { table } : {}) });
  if (!span || !keyColumn) throw new Error(`no column ${column} or ${key}`);
  const alone = await lookAtRows(rows, span, keyColumn);
  const framed = await lookAtRows(rows, span, keyColumn, { frame: page.mainFrame(), row, key: keyColumn });
  return { alone, framed };
}

describe('a keyed row looked at in its frame', () => {
  it('reads what Playwright’s locator reads: the value, and the key cell beside it', async ({ page }) => {
    await page.setContent(USERS);
    for (const [row, column, key] of [
      ['admin', 'Email', 'Username'],
      ['al', 'Email', 'Username'],
      ['7', 'email', 'id'],
      ['8', 'email', 'id'],
      ['nobody', 'Email', 'Username'],
      ['ghost', 'Email', 'Username'],
    ] as const) {
      const { alone, framed } = await bothLooks(page, row, column, key);
      expect(framed, `${row} ${column}`).toEqual(alone);
    }
    const { framed } = await bothLooks(page, 'admin', 'Email', 'Username');
    expect(framed).toMatchObject({ rows: 1, cells: 1, text: 'admin@shop.test', key: { visible: true } });
  });

  it('counts every table and hidden rows, so its none is Playwright’s none', async ({ page }) => {
    await page.setContent(USERS);
    // The hidden row is a row here, none to Playwright: the count there decides.
    expect(
      await lookAtKeyedRows(page.mainFrame(), {
        row: 'ghost',
        key: { start: 1, span: 1 },
        column: { start: 2, span: 1 },
        readKey: false,
      }),
    ).toMatchObject({ rows: 1 });
    expect((await bothLooks(page, 'ghost', 'Email', 'Username')).framed.rows).toBe(0);
  });

  it('declines a frame with shadow roots, whose text Playwright reads and it does not', async ({ page }) => {
    await page.setContent(`${USERS}<div id="host"></div>`);
    await page.evaluate(() => document.getElementById('host')?.attachShadow({ mode: 'open' }));
    expect(
      await lookAtKeyedRows(page.mainFrame(), {
        row: 'admin',
        key: { start: 1, span: 1 },
        column: { start: 2, span: 1 },
        readKey: true,
      }),
    ).toBeUndefined();
    const { alone, framed } = await bothLooks(page, 'admin', 'Email', 'Username');
    expect(framed).toEqual(alone);
  });
});
