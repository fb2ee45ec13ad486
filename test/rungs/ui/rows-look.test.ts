import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { cellRows, lookAtRows } from '../../../src/rungs/ui/locator.js';
import { itWithPage as it } from '../../support/browser-page.js';

/** The look a read takes: the rows that carry `row`, the cell under `column`, the key cell beside it. */
async function look(page: Page, row: string, column: string, key?: string) {
  const {
    rows,
    column: span,
    keyColumn,
  } = await cellRows(page, {
    by: 'cell',
    row,
    column,
    ...(key ? { key } : {}),
  });
  if (!span) throw new Error(`no column ${column}`);
  return lookAtRows(rows, span, keyColumn);
}

describe('the rows counted and the cell read in one look', () => {
  it('reads the one row’s cell, and its key cell when asked', async ({ page }) => {
    await page.setContent(`<table><tr><th>Name</th><th>Email</th></tr>
      <tr><td>al</td><td>al@shop.test</td></tr><tr><td>bo</td><td>bo@shop.test</td></tr></table>`);
    expect(await look(page, 'al', 'Email')).toEqual({ rows: 1, cells: 1, text: 'al@shop.test' });
    expect(await look(page, 'bo', 'Email', 'Name')).toEqual({
      rows: 1,
      cells: 1,
      text: 'bo@shop.test',
      key: { text: 'bo', visible: true },
    });
  });

  it('lets the count decide: a second row without a cell under the column is still a second row', async ({
    page,
  }) => {
    // The read over both rows finds one cell, so it answers; the rows are two all the same.
    await page.setContent(`<table><tr><th>Name</th><th>Email</th></tr>
      <tr><td>al</td><td>al@shop.test</td></tr><tr><td>al</td></tr></table>`);
    expect(await look(page, 'al', 'Email')).toEqual({ rows: 2, cells: 0 });
  });

  it('answers none, and several rows', async ({ page }) => {
    await page.setContent(`<table><tr><th>Name</th><th>Email</th></tr>
      <tr><td>al</td><td>one@shop.test</td></tr><tr><td>al</td><td>two@shop.test</td></tr></table>`);
    expect(await look(page, 'al', 'Email')).toEqual({ rows: 2, cells: 0 });
    expect(await look(page, 'nobody', 'Email', 'Name')).toEqual({ rows: 0, cells: 0 });
  });

  it('reads a row again when its column spans several cells: the cells are counted, no text is guessed', async ({
    page,
  }) => {
    await page.setContent(`<table><tr><th>Name</th><th colspan="2">Actions</th></tr>
      <tr><td>al</td><td>Edit</td><td>Delete</td></tr></table>`);
    expect(await look(page, 'al', 'Actions')).toEqual({ rows: 1, cells: 2 });
  });

  it('reads a row whose cell is drawn after the row was first seen', async ({ page }) => {
    await page.setContent(`<table><tr><th>Name</th><th>Email</th></tr><tr id="row"><td>al</td></tr></table>`);
    // The first look sees the row without its cell (none under the column); a later one reads it.
    expect(await look(page, 'al', 'Email')).toEqual({ rows: 1, cells: 0 });
    await page.evaluate(() => {
      const cell = document.createElement('td');
      cell.textContent = 'late@shop.test';
      document.getElementById('row')?.append(cell);
    });
    expect(await look(page, 'al', 'Email')).toEqual({ rows: 1, cells: 1, text: 'late@shop.test' });
  });
});
