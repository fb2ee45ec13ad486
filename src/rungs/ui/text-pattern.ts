import type { Locator } from 'playwright-core';
import { capturingPattern } from '../../contract/pattern.js';
import type { Scope } from './target-scope.js';

/** Elements whose text is longer than this are no line of a page: they are never one match. */
const MAX_TEXT_CHARS = 4_000;

/**
 * The elements a person reads a text pattern in: the innermost visible elements whose text
 * (white space collapsed, as a person reads it) the pattern finds, so a label–value line or a
 * count inside a sentence ("Last modified: 2026/12/07 03:21 by Admin", "Showing 1–20 of 143")
 * is one element whatever its markup. The page hands over its texts and the pattern runs here,
 * on the linear-time engine: a pattern from a capability never runs in the page. Each element
 * is named by its place among the scope's visible elements at this look, never stored.
 */
export async function textsMatching(scope: Scope, pattern: string, inContainer: boolean): Promise<Locator> {
  const compiled = capturingPattern(pattern, { what: 'text pattern' });
  const all = scope.locator(inContainer ? '*' : 'body *').filter({ visible: true });
  const seen = await all
    .evaluateAll((elements, limit) => {
      const at = new Map(elements.map((element, index) => [element, index]));
      return elements.map((element) => {
        let parent = element.parentElement;
        while (parent && !at.has(parent)) parent = parent.parentElement;
        const long = (element.textContent ?? '').length > limit;
        return {
          parent: parent ? (at.get(parent) ?? -1) : -1,
          // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
          text: long ? '' : (element as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
        };
      });
    }, MAX_TEXT_CHARS)
    .catch(() => [] as Array<{ parent: number; text: string }>);
  const matched = new Set<number>();
  seen.forEach((element, index) => {
    if (element.text && compiled.capture(element.text) !== undefined) matched.add(index);
  });
  // An element holding a match of its own is the line; those around it are not.
  const outer = new Set<number>();
  for (const index of matched) {
    for (let parent = seen[index]!.parent; parent >= 0; parent = seen[parent]!.parent) outer.add(parent);
  }
  const innermost = [...matched].filter((index) => !outer.has(index));
  if (innermost.length === 0) return scope.locator('lift-no-text-match');
  return innermost.map((index) => all.nth(index)).reduce((every, one) => every.or(one));
}
