import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { z } from 'zod';
import { frameAt, knownFrame } from './frame-at.js';
import { columnSpanInFrame } from './header-columns.js';
import { lookAtKeyedRows } from './keyed-rows.js';
import { fieldByLabel, pairValue, xpathString } from './locator-fields.js';

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
    by: z.literal('field'),
    /**
     * The text a person reads for the field: its label, else the text right before it
     * ("Enter:" before a box), else its form row's header cell. A trailing colon is optional.
     */
    label: z.string().min(1).max(200),
    /** The kind of field, when the row holds several (a Function select and a Value box). */
    role: z.string().min(1).max(40).optional(),
  }),
  z.strictObject({
    by: z.literal('pair'),
    /**
     * The label of a "Label: value" pair, a definition list's term or a row's header cell:
     * the element is the value beside it ("Status" of "Status: New" reads "New").
     */
    label: z.string().min(1).max(200),
  }),
  /**
   * The editable body of the frame the target names: a rich-text editor whose iframe document
   * is the editor (TinyMCE) and whose body has no label of its own; the frame's title names it.
   */
  z.strictObject({ by: z.literal('editor') }),
  z.strictObject({
    by: z.literal('cell'),
    /** A value that identifies the row (any cell's text in it). */
    row: z.string().min(1).max(200),
    /** The column header's text. */
    column: z.string().min(1).max(200),
    /**
     * The key column: the row is the one whose cell in this column holds `row` (the cell's
     * whole text, or an element in it, such as the record's link). Without it, any cell of
     * the row equal to `row` picks it, which on real tables matches the wrong row ("3" is
     * also a customer id and a quantity).
     */
    key: z.string().min(1).max(200).optional(),
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

/** A named region, landmark, form, fieldset or dialog the element sits in. */
export const WithinSchema = z.strictObject({
  role: z.string().min(1).max(40),
  name: z.string().min(1).max(200),
});
export type Within = z.infer<typeof WithinSchema>;

/**
 * Frame, then the named container the element sits in, then the locator, then which match
 * (`nth`: 1 for the first) when the locator alone names several: a target names one element.
 */
export const TargetSchema = z.strictObject({
  frame: FramePathSchema.default([]),
  within: WithinSchema.optional(),
  locator: SemanticLocatorSchema,
  nth: z.number().int().min(1).max(500).optional(),
});
export type Target = z.infer<typeof TargetSchema>;

/** Where a target's locator is resolved: the page, or the iframes its frame path names. */
export function frameScope(page: Page, frames: FramePath): Page | Frame | FrameLocator {
  const known = knownFrame(page, frames);
  if (known) return known;
  let scope: Page | FrameLocator = page;
  for (const name of frames) {
    scope = scope.frameLocator(`iframe[title="${cssString(name)}"], iframe[name="${cssString(name)}"]`);
  }
  return scope;
}

function cssString(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** Where the locator is looked for: the frame the target names, inside its named container. */
export function targetScope(page: Page, target: Pick<Target, 'frame' | 'within'>): Scope {
  const frame = frameScope(page, target.frame);
  const { within } = target;
  return within ? frame.getByRole(within.role as AriaRole, { name: within.name, exact: true }) : frame;
}

type AriaRole = Parameters<Page['getByRole']>[0];

/** What a locator is looked for in: a page, a frame, or a container element. */
export type Scope = Page | Frame | FrameLocator | Locator;

/** A target as a person reads it: `the 2nd link "Edit" in region "Recent posts"`. */
export function describeScopedLocator(target: Omit<Target, 'frame'>): string {
  const ordinal = target.nth ? `the ${ordinalOf(target.nth)} ` : '';
  const within = target.within ? ` in ${target.within.role} "${target.within.name}"` : '';
  return `${ordinal}${describeLocator(target.locator)}${within}`;
}

function ordinalOf(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

export function describeLocator(locator: SemanticLocator): string {
  switch (locator.by) {
    case 'role':
      // An empty name matched loosely is any name: a position (`nth`) then tells which.
      return locator.name === '' && locator.exact === false
        ? `any ${locator.role}`
        : `${locator.role} "${locator.name}"`;
    case 'label':
      return `field labelled "${locator.label}"`;
    case 'text':
      return `text "${locator.text}"`;
    case 'field':
      return `${locator.role ?? 'field'} after "${locator.label}"`;
    case 'pair':
      return `value of "${locator.label}"`;
    case 'editor':
      return 'the rich-text editor';
    case 'cell':
      return `${locator.element ? `${locator.element.role} in ` : ''}cell (row ${locator.key ? `whose ${locator.key} is ` : ''}"${locator.row}", column "${locator.column}")${locator.table ? ` of table "${locator.table}"` : ''}`;
  }
}

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
      // The text a person reads: a hidden copy (a console logging every query it ran) is not it,
      // as a hidden element is never a role's match either.
      return scope.getByText(locator.text, { exact: true }).filter({ visible: true });
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
  const named = locator.table ? tablesNamed(scope, locator.table) : scope.locator('table');
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
