import type { Locator } from 'playwright-core';
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

/** The text a read returns for its target: a "Label: value" pair without its label. */
export function readText(target: Target, text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return target.locator.by === 'pair' ? valueOfPair(flat, target.locator.label) : flat;
}
