import type { Locator } from 'playwright-core';
import { xpathString } from './locator-fields.js';
import type { Scope } from './target-scope.js';

/** The rows of a table itself, not of a table nested in one of its cells. */
const ROWS = '(./tr|./thead/tr|./tbody/tr|./tfoot/tr)';
/** A header cell with text: how observe and the header set count a column header. */
const NAMED_CELL = "*[(self::th or self::td) and normalize-space(.)!='']";

/**
 * Header text as XPath's normalize-space reads it (only spaces, tabs and line breaks are white
 * space there), so a header set read on the page compares with the XPath that finds it again.
 */
export function headerText(text: string): string {
  return text.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '');
}

/**
 * The tables whose header row holds exactly these headers, in any order: the first row with a
 * `th`, else the first row (columnSpan reads the same row), its cells with text counted as the
 * headers are, each header there and no other. A reordered table is the same table; one with a
 * column more or less, or another table with the same row, is not.
 */
export function tablesWithHeaders(scope: Scope, headers: readonly string[]): Locator {
  const holds = (row: string) =>
    [
      `count(${row}/${NAMED_CELL})=${headers.length}`,
      ...[...new Set(headers)].map(
        (header) => `${row}/*[(self::th or self::td) and normalize-space(.)=${xpathString(header)}]`,
      ),
    ].join(' and ');
  const withTh = `${ROWS}[th][1]`;
  const first = `${ROWS}[1]`;
  return scope.locator(
    `xpath=//table[(${ROWS}[th] and ${holds(withTh)}) or (not(${ROWS}[th]) and ${holds(first)})]`,
  );
}
