import type { Locator } from 'playwright-core';
import { capturingPattern } from '../../contract/pattern.js';
import type { Target } from './locator.js';
import { valueOfPair } from './locator-fields.js';

/** What a field holds, and whether it is a rich-text editor (its text collapsed as a person reads it). */
export interface FieldRead {
  value: string;
  editor: boolean;
}

/**
 * What a field holds: an input's, textarea's or select's value, or the text of a rich-text
 * editor (a contenteditable element, the body of an editor's iframe), as a person reads it.
 * A form field is read in Playwright's utility world (`inputValue`), where the step that
 * wrote it already ran: the page's own world costs 40–90 ms the first time in a document.
 */
export async function readField(locator: Locator, timeout: number): Promise<FieldRead> {
  try {
    return { value: await locator.inputValue({ timeout }), editor: false };
  } catch (error) {
    if (!NOT_A_FORM_FIELD.test(error instanceof Error ? error.message : '')) throw error;
  }
  return locator.evaluate(
    // biome-ignore lint/performance/useDomNodeTextContent: an editor's text as a person reads it.
    (element) => ({ value: (element as HTMLElement).innerText.replace(/\s+/g, ' ').trim(), editor: true }),
    undefined,
    { timeout },
  );
}

/** Playwright's answer when `inputValue` meets an element that is not an input, textarea or select. */
const NOT_A_FORM_FIELD = /Node is not an <input>, <textarea> or <select> element/;

export async function fieldValue(locator: Locator, timeout: number): Promise<string> {
  return (await readField(locator, timeout)).value;
}

/** Whether the field holds the text written into it: an input exactly, an editor as it reads. */
export function fieldHolds(read: FieldRead, text: string): boolean {
  return read.value === text || (read.editor && read.value === text.replace(/\s+/g, ' ').trim());
}

/**
 * Whether `after` is `before` with `text` typed in at one place (the caret), nothing else
 * changed. An editor's text is compared without its white space, which its paragraphs and
 * line breaks render in their own way.
 */
export function fieldGained(before: FieldRead, after: FieldRead, text: string): boolean {
  const plain = (value: string) => (after.editor ? value.replace(/\s+/g, '') : value);
  const [was, now, typed] = [plain(before.value), plain(after.value), plain(text)];
  if (now.length !== was.length + typed.length) return false;
  let prefix = 0;
  while (prefix < was.length && was[prefix] === now[prefix]) prefix++;
  // The text went in at some place no later than where the two first differ.
  for (let at = prefix; at >= 0; at--) {
    if (now.startsWith(typed, at) && now.slice(at + typed.length) === was.slice(at)) return true;
  }
  return false;
}

/**
 * Whether a line break typed into the field is a new line (a textarea, a rich-text editor)
 * rather than Enter sending its form (an input).
 */
export async function takesLineBreaks(locator: Locator, timeout: number): Promise<boolean> {
  return locator.evaluate(
    (element) => element.tagName === 'TEXTAREA' || (element as HTMLElement).isContentEditable,
    undefined,
    { timeout },
  );
}

/**
 * The text a read returns for its target: a "Label: value" pair without its label, and for a
 * text found by a pattern, what its one capture group matched ('' when it no longer matches).
 */
export function readText(target: Target, text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const { locator } = target;
  if (locator.by === 'pair') return valueOfPair(flat, locator.label);
  if (locator.by === 'text' && locator.pattern !== undefined)
    return capturingPattern(locator.pattern, { what: 'text pattern' }).capture(flat)?.trim() ?? '';
  return flat;
}

/**
 * The text a replay reads for its target, as rendered (line breaks kept, so a checkpoint on a
 * multi-line value compares as it always did): only a pair's own label and what a pattern does
 * not capture are taken away.
 */
export function shownText(target: Target, rendered: string): string {
  const { locator } = target;
  if (locator.by === 'text' && locator.pattern !== undefined) return readText(target, rendered);
  if (locator.by !== 'pair') return rendered;
  const flat = rendered.replace(/\s+/g, ' ').trim();
  const value = valueOfPair(flat, locator.label);
  return value === flat ? rendered : value;
}

/**
 * What a read gives for an element: the text a person reads in it, and for a select, the
 * chosen option's value beside its label (`option`) when the two differ, so that a checkpoint
 * on a field chosen by either (the select step chooses by label, else by value) compares it.
 */
export interface ValueRead {
  text: string;
  option?: string;
}

/** Roles of the fields discovery can fill, choose in or check. */
const FIELD_ROLES = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'spinbutton',
  'slider',
  'checkbox',
  'radio',
  'switch',
]);
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch']);

/** What a target names, as far as its locator says: a field, a box that is checked, or text. */
export type ReadKind = 'field' | 'checkable' | 'text';

export function readKindOf(target: Target): ReadKind {
  const { locator } = target;
  const role =
    locator.by === 'role' ? locator.role : locator.by === 'cell' ? locator.element?.role : undefined;
  if (role !== undefined && CHECKABLE_ROLES.has(role)) return 'checkable';
  if (locator.by === 'label' || locator.by === 'field') return 'field';
  return role !== undefined && FIELD_ROLES.has(role) ? 'field' : 'text';
}

/**
 * Reads an element as a person reads it, in Playwright's utility world: a textarea's or an
 * input's value (unnamed inputs alike), a select's chosen option by its label (several joined
 * with ", "), a box's checked state ("true", "false"), a rich-text editor's text, any other
 * element's text (readText). Text is read in one look; a field costs three at once. `kind`
 * says what the element is when the caller knows (discovery's live element); otherwise the
 * target's locator says it (readKindOf).
 */
export async function readValue(
  locator: Locator,
  target: Target,
  timeout?: number,
  kind: ReadKind = readKindOf(target),
): Promise<ValueRead> {
  const clock = timeout === undefined ? {} : { timeout };
  if (kind === 'checkable') return { text: String(await locator.isChecked(clock)) };
  if (kind === 'field') {
    const field = await readFormField(locator, clock);
    if (field) return field;
  }
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
  return { text: shownText(target, await locator.innerText(clock)) };
}

/** An input's, textarea's or select's value as a person reads it; undefined for any other element. */
async function readFormField(locator: Locator, clock: { timeout?: number }): Promise<ValueRead | undefined> {
  const [value, type, chosen] = await Promise.all([
    locator.inputValue(clock).catch((error: unknown) => {
      if (NOT_A_FORM_FIELD.test(error instanceof Error ? error.message : '')) return undefined;
      throw error;
    }),
    locator.getAttribute('type', clock).catch(() => null),
    locator
      .locator('option:checked')
      .allTextContents()
      .catch(() => [] as string[]),
  ]);
  if (value === undefined) return undefined;
  if (type === 'checkbox' || type === 'radio') return { text: String(await locator.isChecked(clock)) };
  if (chosen.length === 0) return { text: value };
  const label = chosen.map((text) => text.replace(/\s+/g, ' ').trim()).join(', ');
  return label === value ? { text: label } : { text: label, option: value };
}
