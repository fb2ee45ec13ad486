import type { Frame, Locator } from 'playwright-core';
import { lookAtKeyedRows } from './keyed-rows.js';
import { type ColumnSpan, cellsUnder } from './table-geometry.js';

/** One look at the rows that carry a row value: how many, and the cell under the column of the one. */
export interface RowsLook {
  rows: number;
  /** Cells under the column in the one row (0 when there is not exactly one row). */
  cells: number;
  /** innerText of the one cell of the one row. */
  text?: string;
  /** The one row's cell under the key column, when asked for and there is exactly one. */
  key?: KeyCellLook;
}

/** A keyed row's own key cell, as the look that found the row saw it. */
export interface KeyCellLook {
  /** innerText, as a person reads it. */
  text: string;
  /** A box of some size and not `visibility: hidden`, as Playwright calls an element visible. */
  visible: boolean;
}

/**
 * Counts the rows and reads the cell under the column of the single one (the cell `cellsUnder`
 * names); given the key column, the row's key cell too, so a checkpoint that compares it
 * needs no look of its own. Every read is Playwright's utility world, as actions are: an
 * evaluation in the page's own world costs a new document 40–50 ms (frame-at.ts).
 *
 * The count and the reads go out together, in one round trip to the renderer where a hand
 * written script spends one too: a strict read of the cell under the column over every row
 * counted answers only when there is exactly one such cell, and the count beside it decides
 * whether that is the one row's. A read that does not answer in that round (several cells
 * under a spanning header, a renderer too slow) is read again on the one row, as before. A
 * keyed row in a known frame is looked at there first (keyed-rows.ts): one evaluation, with
 * the count beside it.
 */
export async function lookAtRows(
  rows: Locator,
  column: ColumnSpan,
  keyColumn?: ColumnSpan,
  keyed?: { frame: Frame; row: string; key: ColumnSpan },
): Promise<RowsLook> {
  const counted = rows.count();
  // Answered or not, a look sent with the count is never a failure of its own.
  counted.catch(() => undefined);
  const seen = keyed
    ? await lookAtKeyedRows(keyed.frame, {
        row: keyed.row,
        key: keyed.key,
        column,
        readKey: keyColumn !== undefined,
      })
    : undefined;
  // Its rows hold Playwright's: none there is none here, one there is this one if it counts one.
  if (seen?.rows === 0) return seen;
  const atOnce = seen ? undefined : readAtOnce(rows, column, keyColumn);
  const count = await counted;
  if (seen?.rows === 1 && count === 1) return seen;
  if (count !== 1) return { rows: count, cells: 0 };
  const read = await atOnce;
  if (read?.text !== undefined) return { rows: 1, cells: 1, ...read };
  return lookAtOneRow(rows.first(), column, keyColumn);
}

/**
 * The cell under the column, and the key cell, read strictly over every row counted: an
 * answer only when exactly one cell lies under each. Its clock is short: a read that has not
 * answered by then is read again once the count says there is one row.
 */
async function readAtOnce(
  rows: Locator,
  column: ColumnSpan,
  keyColumn?: ColumnSpan,
): Promise<{ text?: string; key?: KeyCellLook }> {
  const key = keyColumn ? cellsUnder(rows, keyColumn) : undefined;
  const none = () => undefined;
  const [text, keyText, keyVisible] = await Promise.all([
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
    cellsUnder(rows, column).innerText({ timeout: AT_ONCE_MS }).catch(none),
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
    key?.innerText({ timeout: AT_ONCE_MS }).catch(none),
    key?.isVisible().catch(none),
  ]);
  if (text === undefined) return {};
  if (!key) return { text };
  // It answers only whole: a key cell asked for and not read in this round (on a loaded
  // machine, the cell's text came in time and the key's did not) is read with it on the row.
  if (keyText === undefined || keyVisible === undefined) return {};
  return { text, key: { text: keyText, visible: keyVisible } };
}

/** The cells under the columns of the one row the count found, read together. */
async function lookAtOneRow(row: Locator, column: ColumnSpan, keyColumn?: ColumnSpan): Promise<RowsLook> {
  const cell = cellsUnder(row, column);
  const key = keyColumn ? cellsUnder(row, keyColumn) : undefined;
  // The row went between the count and the read (a re-render): looked at as a row not there.
  const gone = () => undefined;
  const [cells, text, keys, keyText, keyVisible] = await Promise.all([
    cell.count(),
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
    cell.first().innerText({ timeout: LOOK_MS }).catch(gone),
    key?.count(),
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
    key?.first().innerText({ timeout: LOOK_MS }).catch(gone),
    key?.first().isVisible(),
  ]);
  const look: RowsLook = { rows: 1, cells };
  if (cells === 1) {
    const read = text ?? (await readIfStillThere(cell));
    if (read === undefined) return { rows: 0, cells: 0 };
    look.text = read;
  }
  if (keys === 1 && keyText !== undefined) look.key = { text: keyText, visible: keyVisible === true };
  return look;
}

/** How long the read sent with the count waits: one round on a renderer that keeps up. */
const AT_ONCE_MS = 250;

/** How long a read waits for a cell the count just saw: it is there, or it went. */
const LOOK_MS = 1_000;
/** How long a cell counted again after a read ran out gets: a starved renderer answers late. */
const STILL_THERE_MS = 15_000;

/**
 * A cell whose read ran out its clock, read again if it is still there: a read that ran out
 * on a cell still counted says the renderer is starved, not that the row went.
 */
async function readIfStillThere(cell: Locator): Promise<string | undefined> {
  if ((await cell.count()) !== 1) return undefined;
  const read = cell.first();
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
  return read.innerText({ timeout: STILL_THERE_MS }).catch(() => undefined);
}
