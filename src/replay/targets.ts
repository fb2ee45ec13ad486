import type { Locator, Page } from 'playwright-core';
import type { Step } from '../capability/capability.js';
import { readValue } from '../rungs/ui/field-value.js';
import { frameAt } from '../rungs/ui/frame-at.js';
import { resolveTarget } from '../rungs/ui/locator.js';
import { describeLocator, describeScopedLocator, type Target } from '../rungs/ui/locator-format.js';
import { type KeyCellLook, lookAtRows } from '../rungs/ui/rows-look.js';
import { cellRows, cellsUnder } from '../rungs/ui/table-geometry.js';
import { frameScope } from '../rungs/ui/target-scope.js';

export function describeTarget(target: Target): string {
  const where = target.frame.length > 0 ? ` in frame "${target.frame.join(' > ')}"` : '';
  return `${describeLocator(target.locator)}${where}`;
}

/**
 * What a step acts on, as the capability records it: `button "Look up"`, `/members/{{input.id}}`.
 * Read from the capability, not the page, so an input appears as its placeholder, never its
 * value (a progress line or a run log may be read by anyone watching the call).
 */
export function stepSubject(step: Step): string {
  if (step.op === 'navigate') return step.path;
  const target = describeScopedLocator(step.target);
  return step.op === 'press' ? `${step.key} in ${target}` : target;
}

/**
 * A locator that becomes visible when the target is there. For a table cell that is the
 * header of its column: the cell itself is only resolvable once the header row exists.
 */
export function presenceOf(page: Page, target: Target): Locator | undefined {
  const scope = frameScope(page, target.frame);
  const locator = target.locator;
  if (locator.by === 'cell') {
    return scope.getByRole('columnheader', { name: locator.column, exact: true }).first();
  }
  return undefined;
}

/** What one look at a target finds: how many elements match, and the state of the single match. */
export interface Probe {
  /** A locator for the match (strict: an action on it fails when there are several); for a cell, the cell in the first matching row. */
  locator: Locator;
  /** Matches; for a cell, the rows that carry the row value (ambiguity is in the rows). */
  count: number;
  /** Whether the single match is visible, when asked for (false when not asked). */
  visible: boolean;
  /** What the single match reads, when asked for: its text, a field's value (readValue). */
  text?: string;
  /** For a select, its chosen option's value when that differs from the label `text` holds. */
  option?: string;
  /** For a keyed cell read with its text, the row's key cell as the same look saw it. */
  keyCell?: KeyCellLook;
}

/**
 * Resolves a target fresh and looks at it without waiting: how many elements match, and
 * (when asked) whether the single match is visible and what it says. Everything here runs
 * in Playwright's utility world, as actions do, so a new document pays for one injected
 * script, not two; independent looks go out together.
 */
export async function probeTarget(
  page: Page,
  target: Target,
  want: { visible?: boolean; text?: boolean } = {},
): Promise<Probe> {
  const locator = target.locator;
  // A cell that names which of its matches it means (nth) is that match, as discovery read it.
  if (locator.by !== 'cell' || locator.element || target.nth) {
    const resolved = await resolveTarget(page, target);
    let count = await resolved.count();
    // A cell's ambiguity is in its rows, unless the target names which match it means (nth).
    if (locator.by === 'cell' && count > 0 && !target.nth) count = await rowCount(page, target);
    if (count !== 1) return { locator: resolved, count, visible: false };
    // Strict: a second match appearing since the count throws instead of reading the wrong one.
    const visible = want.visible ? await resolved.isVisible() : false;
    if (!want.text) return { locator: resolved, count, visible };
    // A field reads as its value (a textarea, an unnamed input, a select's label), not its text.
    const read = await readValue(resolved, target);
    return {
      locator: resolved,
      count,
      visible,
      text: read.text,
      ...(read.option ? { option: read.option } : {}),
    };
  }
  const frame = await frameAt(page, target.frame);
  const { rows, column, keyColumn } = await cellRows(frameScope(page, target.frame), locator, frame);
  // One cell per matching row: with several rows, reading it is a strict-mode error, never a guess.
  const cell = column ? cellsUnder(rows, column) : rows.locator('lift-missing-column');
  // A column this page does not have matches nothing, whatever rows carry the value.
  if (!column) return { locator: cell, count: 0, visible: false };
  // The rows counted and the one cell read in one look, its visibility beside it when asked.
  const [look, visible] = await Promise.all([
    lookAtRows(
      rows,
      column,
      want.text ? keyColumn : undefined,
      frame && locator.key && keyColumn ? { frame, row: locator.row, key: keyColumn } : undefined,
    ),
    want.visible ? cell.isVisible().catch(() => false) : false,
  ]);
  if (look.rows !== 1) return { locator: cell, count: look.rows, visible: false };
  if (!want.text) return { locator: cell, count: 1, visible };
  // Several cells under a spanning header: Playwright's own read throws its strict-mode error.
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
  const text = look.cells === 1 ? (look.text ?? '') : await cell.innerText();
  return { locator: cell, count: 1, visible, text, ...(look.key ? { keyCell: look.key } : {}) };
}

/** Rows carrying the row value (for a cell with an element in it, whose locator picks by position). */
async function rowCount(page: Page, target: Target): Promise<number> {
  if (target.locator.by !== 'cell') return 1;
  const frame = await frameAt(page, target.frame);
  return (await cellRows(frameScope(page, target.frame), target.locator, frame)).rows.count();
}

/**
 * Waits until the target is visible or `timeoutMs` passes; never throws. Outside tables the
 * wait is strict: 'visible' means exactly one match, and a second one answers 'ambiguous'.
 */
export async function waitVisible(
  page: Page,
  target: Target,
  timeoutMs: number,
): Promise<'visible' | 'absent' | 'ambiguous'> {
  try {
    const presence = presenceOf(page, target);
    if (presence) await presence.waitFor({ state: 'visible', timeout: timeoutMs });
    const locator = await resolveTarget(page, target);
    // A cell locator picks by position; its ambiguity is counted in rows, by probeTarget.
    await (target.locator.by === 'cell' ? locator.first() : locator).waitFor({
      state: 'visible',
      timeout: timeoutMs,
    });
    return 'visible';
  } catch (error) {
    return isStrictViolation(error) ? 'ambiguous' : 'absent';
  }
}

/** Why a pointer or key action did not reach its element, from Playwright's message. */
export function blockedReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/not enabled|disabled/i.test(message)) return 'the element is disabled';
  if (/intercepts pointer events/i.test(message)) return 'another element covers it';
  if (/outside of the viewport/i.test(message)) return 'it is off screen';
  return 'it did not become actionable';
}

/**
 * How far an action got when its clock ran out on a page too slow to answer it (a starved
 * renderer or machine), read from Playwright's call log, whose last line says what it was
 * doing: 'before_input' while it was still looking at the element, 'input_sent' once an input
 * may have reached the page. Undefined when the page refused the action (an element covering
 * it, one still moving) or the error is not a timeout.
 */
export function slowPageAt(error: unknown): 'before_input' | 'input_sent' | undefined {
  if (!(error instanceof Error) || error.name !== 'TimeoutError') return undefined;
  const log = error.message.split('Call log:')[1] ?? '';
  // Playwright dims its call log with ANSI codes.
  const lines = log.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const steps = lines.map((line) => line.replace(/^\s*-\s*/, '').trim()).filter(Boolean);
  // A page that refused the action even once was refusing it, not slow to answer.
  if (steps.some((step) => REFUSED.test(step))) return undefined;
  const last = steps.at(-1) ?? '';
  if (BEFORE_INPUT.test(last)) return 'before_input';
  return INPUT_MAY_BE_SENT.test(last) ? 'input_sent' : undefined;
}

/** Call-log steps of an action still looking at its element: nothing has reached the page. */
const BEFORE_INPUT =
  /^(locator resolved to |attempting [\w ]+ action|waiting for element to be visible(, enabled)? and stable|element is visible(, enabled)? and stable|scrolling into view|done scrolling)/;

/** Call-log steps after which an input may have reached the page. */
const INPUT_MAY_BE_SENT =
  /^(performing \w+ action|\w+ action done|waiting for scheduled navigations|fill\(|waiting for element to be visible, enabled and editable|waiting for element to be visible and enabled|elementHandle\.\w+\()/;

/** Call-log reasons a page gives for not taking an action. */
const REFUSED =
  /^(element is not |element is outside|element is inert|.+ intercepts pointer events|did not find some options|option being selected is not enabled|retrying )/;

export function isStrictViolation(error: unknown): boolean {
  return error instanceof Error && /strict mode violation/i.test(error.message);
}

/** What the page offers instead of a missing target: named actionable elements in the same frame. */
export async function offered(page: Page, target: Target): Promise<string[]> {
  const scope = frameScope(page, target.frame);
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
