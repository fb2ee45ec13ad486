import type { FrameLocator, Locator, Page } from 'playwright-core';
import { z } from 'zod';

/**
 * How Lift names an element: by meaning, never by position, CSS class or XPath. The same
 * locator resolves on a page whose rows and columns were reordered. Shared by the UI rung
 * (actions), the compiler (what it stores) and replay (what it resolves fresh).
 */
export const SemanticLocatorSchema = z.discriminatedUnion('by', [
  z.strictObject({
    by: z.literal('role'),
    role: z.string().min(1).max(40),
    name: z.string().max(200),
    exact: z.boolean().optional(),
  }),
  z.strictObject({ by: z.literal('label'), label: z.string().min(1).max(200) }),
  z.strictObject({ by: z.literal('text'), text: z.string().min(1).max(200) }),
  z.strictObject({
    by: z.literal('cell'),
    /** A value that identifies the row (any cell's text in it). */
    row: z.string().min(1).max(200),
    /** The column header's text. */
    column: z.string().min(1).max(200),
    /** The table's accessible name or caption, when the page has several tables. */
    table: z.string().max(200).optional(),
    /** An element inside the cell (a link or button in it), by role and accessible name. */
    element: z
      .strictObject({ role: z.string().min(1).max(40), name: z.string().max(200).optional() })
      .optional(),
  }),
]);
export type SemanticLocator = z.infer<typeof SemanticLocatorSchema>;

/** Where the element lives: the top page or an iframe named by its title or name attribute. */
export const FramePathSchema = z.array(z.string().min(1).max(200)).max(4);
export type FramePath = z.infer<typeof FramePathSchema>;

export const TargetSchema = z.strictObject({
  frame: FramePathSchema.default([]),
  locator: SemanticLocatorSchema,
});
export type Target = z.infer<typeof TargetSchema>;

/** Where a target's locator is resolved: the page, or the iframes its frame path names. */
export function frameScope(page: Page, frames: FramePath): Page | FrameLocator {
  let scope: Page | FrameLocator = page;
  for (const name of frames) {
    scope = scope.frameLocator(`iframe[title="${cssString(name)}"], iframe[name="${cssString(name)}"]`);
  }
  return scope;
}

function cssString(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

export function describeLocator(locator: SemanticLocator): string {
  switch (locator.by) {
    case 'role':
      return `${locator.role} "${locator.name}"`;
    case 'label':
      return `field labelled "${locator.label}"`;
    case 'text':
      return `text "${locator.text}"`;
    case 'cell':
      return `${locator.element ? `${locator.element.role} in ` : ''}cell (row "${locator.row}", column "${locator.column}")${locator.table ? ` of table "${locator.table}"` : ''}`;
  }
}

/**
 * Resolves a target on the live page, fresh each time. A cell is found by the header's
 * index in *this* page's header row, so reordered columns still resolve.
 */
export async function resolveTarget(page: Page, target: Target): Promise<Locator> {
  const scope = frameScope(page, target.frame);
  const locator = target.locator;
  switch (locator.by) {
    case 'role':
      return scope.getByRole(locator.role as Parameters<Page['getByRole']>[0], {
        name: locator.name,
        exact: locator.exact ?? true,
      });
    case 'label':
      return scope.getByLabel(locator.label, { exact: true });
    case 'text':
      return scope.getByText(locator.text, { exact: true });
    case 'cell': {
      const header = scope.getByRole('columnheader', { name: locator.column, exact: true });
      const rowCell = scope.getByRole('cell', { name: locator.row, exact: true });
      const tables = locator.table
        ? scope.getByRole('table', { name: locator.table })
        : scope.locator('table');
      const table = tables.filter({ has: header }).filter({ has: rowCell }).first();
      const headers = await table.getByRole('columnheader').allInnerTexts();
      const index = headers.findIndex((text) => text.trim() === locator.column);
      // A column this page does not have resolves to nothing (count 0), never to another column.
      if (index < 0) return table.locator('lift-missing-column');
      const row = table.getByRole('row').filter({ has: rowCell });
      // nth on the live header order: positions are read now, never stored.
      const cell = row.locator(':scope > td, :scope > th').nth(index);
      if (!locator.element) return cell;
      const { role, name } = locator.element;
      return cell.getByRole(
        role as Parameters<Page['getByRole']>[0],
        name === undefined ? {} : { name, exact: true },
      );
    }
  }
}
