import type { Locator } from 'playwright-core';
import type { Target } from './locator.js';
import { valueOfPair } from './locator-fields.js';

/**
 * What a field holds: an input's, textarea's or select's value, or the text of a rich-text
 * editor (a contenteditable element, the body of an editor's iframe), as a person reads it.
 */
export function fieldValue(locator: Locator, timeout: number): Promise<string> {
  return locator.evaluate(
    (element) => {
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) return element.value;
      if (element instanceof HTMLSelectElement) return element.value;
      // biome-ignore lint/performance/useDomNodeTextContent: an editor's text as a person reads it.
      return (element as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
    },
    undefined,
    { timeout },
  );
}

/** The text a read returns for its target: a "Label: value" pair without its label. */
export function readText(target: Target, text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return target.locator.by === 'pair' ? valueOfPair(flat, target.locator.label) : flat;
}
