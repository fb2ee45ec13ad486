import type { Page } from 'playwright-core';
import type { AriaNode } from './snapshot.js';

/** Roles of the cells a table's rows hold, as the renderer counts them. */
const HEADER_CELLS = new Set(['columnheader', 'cell', 'rowheader']);
const DATA_CELLS = new Set(['cell', 'gridcell', 'rowheader']);
const TABLES = new Set(['table', 'grid', 'treegrid']);

/** A table's rows, nested tables left out. */
function rowsOf(table: AriaNode): AriaNode[] {
  const rows: AriaNode[] = [];
  const collect = (node: AriaNode): void => {
    for (const child of node.children) {
      if (child.role === 'row') rows.push(child);
      else if (!TABLES.has(child.role)) collect(child);
    }
  };
  collect(table);
  return rows;
}

/** The row that holds column headers, if any. */
function headerRowOf(rows: AriaNode[]): AriaNode | undefined {
  return rows.find((row) => row.children.some((cell) => cell.role === 'columnheader'));
}

/**
 * Tables whose header row has fewer cells than a data row: a header spans several columns
 * (phpMyAdmin's first header spans the checkbox, Edit, Copy and Delete of every row). An
 * aria snapshot says nothing of colspans, so only these are asked about.
 */
function spanningTables(root: AriaNode): string[] {
  const found: string[] = [];
  const visit = (node: AriaNode): void => {
    if (TABLES.has(node.role) && node.ref) {
      const rows = rowsOf(node);
      const header = headerRowOf(rows);
      const width = (row: AriaNode, roles: Set<string>) =>
        row.children.filter((cell) => roles.has(cell.role)).length;
      const headers = header ? width(header, HEADER_CELLS) : 0;
      if (header && rows.some((row) => row !== header && width(row, DATA_CELLS) > headers))
        found.push(node.ref);
    }
    for (const child of node.children) visit(child);
  };
  visit(root);
  return found;
}

/**
 * The colspan of each cell of the header row of every table whose header spans columns, by
 * the table's ref: one look at the page per such table, none for ordinary tables.
 */
export async function headerSpans(page: Page, root: AriaNode): Promise<Map<string, number[]>> {
  const spans = new Map<string, number[]>();
  await Promise.all(
    spanningTables(root).map(async (ref) => {
      const found = await page
        .locator(`aria-ref=${ref}`)
        .evaluate(
          (table) => {
            const rows = Array.from((table as HTMLTableElement).rows ?? []);
            const header =
              rows.find((row) => Array.from(row.cells).some((cell) => cell.tagName === 'TH')) ?? rows[0];
            return header ? Array.from(header.cells).map((cell) => cell.colSpan) : [];
          },
          undefined,
          { timeout: 1_000 },
        )
        .catch(() => undefined);
      if (found?.some((span) => span > 1)) spans.set(ref, found);
    }),
  );
  return spans;
}
