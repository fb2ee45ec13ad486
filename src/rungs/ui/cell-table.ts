import type { Locator, Page } from 'playwright-core';
import { uniqueTarget } from './element.js';
import type { Target } from './locator.js';
import { headerText } from './table-headers.js';

/** Which table a cell sits in, as discovery reads it: its name and its header set. */
interface TableSeen {
  /** The table's accessible name (aria-label, aria-labelledby, caption), else the heading above it. */
  name: string;
  headers: string[];
}

/**
 * The table of the element, read on the live page: the name observe prints for it (its own
 * name, else the nearest heading before it, which is how `tablesNamed` finds it again; that
 * heading only where the page has other tables to tell it from, since above a page's one table
 * it names the page, often with a value of this run: "Saved issue #13") and the
 * texts of its header row's cells (the first row with a `th`, else the first row), empty ones
 * left out. Undefined when the element is in no table.
 */
async function tableOf(element: Locator): Promise<TableSeen | undefined> {
  const seen = await element
    .evaluate((node) => {
      // No named helpers in here: the bundler would wrap them in a __name the page lacks.
      const table = node.closest('table');
      if (!table) return undefined;
      const labelledBy = (table.getAttribute('aria-labelledby') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => table.ownerDocument.getElementById(id)?.textContent ?? '')
        .join(' ');
      const own = (table.getAttribute('aria-label') ?? '').trim() || labelledBy || table.caption?.textContent;
      const heading = table.ownerDocument.evaluate(
        'preceding::*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6 or @role="heading"][1]',
        table,
        null,
        XPathResult.FIRST_ORDERED_NODE_TYPE,
        null,
      ).singleNodeValue;
      const rows = Array.from(table.rows).filter((row) => row.closest('table') === table);
      const header =
        rows.find((row) => Array.from(row.cells).some((cell) => cell.tagName === 'TH')) ?? rows[0];
      const alone = table.ownerDocument.querySelectorAll('table').length === 1;
      return {
        own: own ?? '',
        heading: alone ? '' : (heading?.textContent ?? ''),
        headers: Array.from(header?.cells ?? []).map((cell) => cell.textContent ?? ''),
      };
    })
    .catch(() => undefined);
  if (!seen) return undefined;
  return {
    name: headerText(seen.own) || headerText(seen.heading),
    headers: seen.headers.map(headerText).filter((header) => header.length > 0),
  };
}

/**
 * A cell target that says which table it reads: the table's name when the target named none,
 * and its header set, so a replay never answers from another table that has the row (a second
 * list on the page, under --layout-tolerant too). Kept only when it still names this element
 * alone on the live page (with its `nth` when it needs one); otherwise the target as it was.
 */
export async function withTableRecorded(page: Page, target: Target, element: Locator): Promise<Target> {
  const { locator } = target;
  if (locator.by !== 'cell') return target;
  const table = await tableOf(element);
  if (!table || table.headers.length === 0) return target;
  const named: Target = {
    ...target,
    locator: {
      ...locator,
      ...(locator.table === undefined && table.name ? { table: table.name.slice(0, 200) } : {}),
      headers: table.headers.slice(0, 60).map((header) => header.slice(0, 200)),
    },
  };
  const handle = await element.elementHandle({ timeout: 1_000 }).catch(() => null);
  if (!handle) return target;
  try {
    return (await uniqueTarget(page, named, handle)) ?? target;
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}
