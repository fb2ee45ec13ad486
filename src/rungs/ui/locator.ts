import type { Locator, Page } from 'playwright-core';
import { frameAt } from './frame-at.js';
import { fieldByLabel, pairValue } from './locator-fields.js';
import type { Target } from './locator-format.js';
import { cellRows, cellsUnder } from './table-geometry.js';
import { type AriaRole, targetScope } from './target-scope.js';
import { textsMatching } from './text-pattern.js';

// The names this module held before the format, the scope, the table geometry and the row reads
// went to files of their own: many callers import them from here (rungs/ui/index.ts, tests).
export {
  describeLocator,
  describeScopedLocator,
  type FramePath,
  FramePathSchema,
  type SemanticLocator,
  SemanticLocatorSchema,
  type Target,
  TargetSchema,
  type Within,
  WithinSchema,
} from './locator-format.js';
export { type KeyCellLook, lookAtRows, type RowsLook } from './rows-look.js';
export { type ColumnSpan, cellRows, cellsUnder, columnSpan, tablesNamed } from './table-geometry.js';
export { frameScope, type Scope, targetScope } from './target-scope.js';

/**
 * Resolves a target on the live page, fresh each time. A cell is found by the header's
 * index in *this* page's header row, so reordered columns still resolve.
 */
export async function resolveTarget(page: Page, target: Target): Promise<Locator> {
  const all = await resolveAll(page, target);
  return target.nth ? all.nth(target.nth - 1) : all;
}

/** Every element the target's scope and locator match, before `nth` picks one. */
async function resolveAll(page: Page, target: Target): Promise<Locator> {
  const scope = targetScope(page, target);
  const locator = target.locator;
  switch (locator.by) {
    case 'role':
      return scope.getByRole(locator.role as AriaRole, {
        name: locator.name,
        exact: locator.exact ?? true,
      });
    case 'label':
      return scope.getByLabel(locator.label, { exact: true });
    case 'text':
      if (locator.pattern !== undefined) return textsMatching(scope, locator.pattern, Boolean(target.within));
      // The text a person reads: a hidden copy (a console logging every query it ran) is not it,
      // as a hidden element is never a role's match either.
      return scope.getByText(locator.text!, { exact: true }).filter({ visible: true });
    case 'field':
      return fieldByLabel(scope, locator.label, locator.role);
    case 'pair':
      return pairValue(scope, locator.label);
    case 'editor':
      return scope.locator('body[contenteditable]:not([contenteditable="false"])');
    case 'cell': {
      const { tables, rows: row, column } = await cellRows(scope, locator, await frameAt(page, target.frame));
      // A column this page does not have resolves to nothing (count 0), never to another column.
      if (!column) return tables.first().locator('lift-missing-column');
      // Positions on the live header row: read now, never stored.
      const cell = cellsUnder(row, column);
      if (!locator.element) return cell;
      const { role, name } = locator.element;
      return cell.getByRole(
        role as Parameters<Page['getByRole']>[0],
        name === undefined ? {} : { name, exact: true },
      );
    }
  }
}
