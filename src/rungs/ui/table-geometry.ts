import type { Frame, Locator } from 'playwright-core';
import { columnSpanInFrame } from './header-columns.js';
import { xpathString } from './locator-fields.js';
import type { SemanticLocator } from './locator-format.js';
import { tablesWithHeaders } from './table-headers.js';
import type { Scope } from './target-scope.js';

// Where a cell lies in a table on the live page: the tables and rows a cell locator names,
// and the place of a column in the header row, counted with colspans. Read fresh, never stored.

type CellLocator = Extract<SemanticLocator, { by: 'cell' }>;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Tables by the name observe prints: their accessible name or caption, or else the heading
 * right before them (most real tables have no name of their own, only a heading above).
 */
export function tablesNamed(scope: Scope, name: string): Locator {
  const heading =
    '*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6 or @role="heading"]';
  return scope
    .getByRole('table', { name, exact: true })
    .or(scope.locator(`xpath=//table[preceding::${heading}[1][normalize-space(.)=${xpathString(name)}]]`));
}

/**
 * The tables that have the column (and the row value), the rows that carry the row value (in
 * the key column when the locator names one, else in any cell), and where the column lies in
 * the first such table. The key's place and the column's are read in one go.
 */
export async function cellRows(
  scope: Scope,
  locator: CellLocator,
  frame?: Frame,
): Promise<{ tables: Locator; rows: Locator; column: ColumnSpan | undefined; keyColumn?: ColumnSpan }> {
  const header = headerCell(scope, locator.column);
  // The frame's own look first, when the frame is known: Playwright's costs a new document more.
  const spanOf = async (table: Locator, column: string) =>
    (frame && (await columnSpanInFrame(frame, column))) || columnSpan(table, column);
  const titled = locator.table ? tablesNamed(scope, locator.table) : scope.locator('table');
  // The table discovery read, by its header set: never another one that has the row too.
  const named = locator.headers ? titled.and(tablesWithHeaders(scope, locator.headers)) : titled;
  if (!locator.key) {
    const rowCell = scope.getByRole('cell', { name: locator.row, exact: true });
    const tables = named.filter({ has: header }).filter({ has: rowCell });
    const column = await spanOf(tables.first(), locator.column);
    return { tables, rows: tables.getByRole('row').filter({ has: rowCell }), column };
  }
  const tables = named.filter({ has: header }).filter({ has: headerCell(scope, locator.key) });
  const [keyColumn, column] = await Promise.all([
    spanOf(tables.first(), locator.key),
    spanOf(tables.first(), locator.column),
  ]);
  if (!keyColumn) return { tables, rows: tables.locator('lift-missing-column'), column };
  const keyCell = cellsUnder(scope, keyColumn);
  const holds = keyCell
    .filter({ hasText: wholeText(locator.row) })
    .or(keyCell.filter({ has: scope.getByText(locator.row, { exact: true }) }));
  return { tables, rows: tables.getByRole('row').filter({ has: holds }), column, keyColumn };
}

function wholeText(text: string): RegExp {
  return new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`);
}

/**
 * A column's header: a column header by role, or any `th` or first-row `td` with that text
 * (a browser reads a `th` after a `td` as a row header; many real tables write headers as `td`).
 */
function headerCell(scope: Scope, column: string): Locator {
  return scope
    .getByRole('columnheader', { name: column, exact: true })
    .or(scope.locator('th, tr:first-child > td').filter({ hasText: wholeText(column) }));
}

/** Where a column lies in the table's grid: its first position and how many it spans. */
export interface ColumnSpan {
  start: number;
  span: number;
}

/**
 * The column's place in the table's header row, read on the live page: the first row with
 * a `th`, else the first row. Every cell of that row counts, `td` included (a "Select all"
 * checkbox column is often a `td`), each by its colspan: phpMyAdmin's first header spans
 * the four action columns of its rows. The header is found as observe names it: by its
 * accessible name (an image's alt text), else by its text.
 */
export async function columnSpan(table: Locator, column: string): Promise<ColumnSpan | undefined> {
  // No table: no header cells either, and no look of its own.
  const found = await headerCell(table, column).evaluateAll((cells) => {
    // No named helpers in here: the bundler would wrap them in a __name the page lacks.
    for (const cell of cells as HTMLTableCellElement[]) {
      const rows = Array.from(cell.closest('table')?.rows ?? []);
      const header =
        rows.find((row) => Array.from(row.cells).some((each) => each.tagName === 'TH')) ?? rows[0];
      if (cell.parentElement !== header) continue;
      let start = 0;
      for (const before of Array.from(header.cells)) {
        if (before === cell) break;
        start += before.colSpan;
      }
      return { start, span: cell.colSpan };
    }
    return undefined;
  });
  return found ?? undefined;
}

/**
 * The cells of the rows (or of the row a scope filters) that lie under a column, each
 * cell's position counted with the colspans of the cells before it.
 */
export function cellsUnder(rows: Scope, column: ColumnSpan): Locator {
  const start =
    'count(preceding-sibling::*) + sum(preceding-sibling::*/@colspan) - count(preceding-sibling::*[@colspan])';
  const end = `${start} + 1 + sum(@colspan) - count(@colspan)`;
  return rows.locator(
    `xpath=./*[(self::td or self::th) and ${start} < ${column.start + column.span} and ${end} > ${column.start}]`,
  );
}
