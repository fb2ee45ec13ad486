import type { FrameLocator, Locator, Page } from 'playwright-core';
import { describeLocator, resolveTarget, type Target } from '../rungs/ui/locator.js';

function scopeOf(page: Page, target: Target): Page | FrameLocator {
  let scope: Page | FrameLocator = page;
  for (const name of target.frame) {
    const quoted = name.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    scope = scope.frameLocator(`iframe[title="${quoted}"], iframe[name="${quoted}"]`);
  }
  return scope;
}

export function describeTarget(target: Target): string {
  const where = target.frame.length > 0 ? ` in frame "${target.frame.join(' > ')}"` : '';
  return `${describeLocator(target.locator)}${where}`;
}

/**
 * A locator that becomes visible when the target is there. For a table cell that is the
 * header of its column: the cell itself is only resolvable once the header row exists.
 */
export function presenceOf(page: Page, target: Target): Locator | undefined {
  const scope = scopeOf(page, target);
  const locator = target.locator;
  if (locator.by === 'cell') {
    return scope.getByRole('columnheader', { name: locator.column, exact: true }).first();
  }
  return undefined;
}

/** Resolves a target fresh and counts its matches, without waiting. */
export async function matchTarget(page: Page, target: Target): Promise<{ locator: Locator; count: number }> {
  const locator = await resolveTarget(page, target);
  const count = await locator.count();
  // A cell locator picks one cell by position; ambiguity is in how many rows carry the value.
  if (target.locator.by === 'cell' && count > 0) return { locator, count: await rowCount(page, target) };
  return { locator, count };
}

async function rowCount(page: Page, target: Target): Promise<number> {
  if (target.locator.by !== 'cell') return 1;
  const scope = scopeOf(page, target);
  const { row, column } = target.locator;
  const tables = scope
    .locator('table')
    .filter({ has: scope.getByRole('columnheader', { name: column, exact: true }) });
  return tables
    .getByRole('row')
    .filter({ has: scope.getByRole('cell', { name: row, exact: true }) })
    .count();
}

/** Waits until the target is visible or `timeoutMs` passes; never throws. */
export async function waitVisible(page: Page, target: Target, timeoutMs: number): Promise<boolean> {
  try {
    const presence = presenceOf(page, target);
    if (presence) await presence.waitFor({ state: 'visible', timeout: timeoutMs });
    const locator = await resolveTarget(page, target);
    await locator.first().waitFor({ state: 'visible', timeout: timeoutMs });
    return true;
  } catch {
    return false;
  }
}

/** What the page offers instead of a missing target: named actionable elements in the same frame. */
export async function offered(page: Page, target: Target): Promise<string[]> {
  const scope = scopeOf(page, target);
  try {
    const snapshot = await scope.locator('body').ariaSnapshot({ timeout: 2_000 });
    return snapshot
      .split('\n')
      .map((line) => line.trim().replace(/^- /, ''))
      .filter((line) => /^(button|link|textbox|columnheader|heading|combobox|checkbox) "/.test(line))
      .map((line) => line.replace(/:.*$/, ''))
      .slice(0, 25);
  } catch {
    return [];
  }
}
