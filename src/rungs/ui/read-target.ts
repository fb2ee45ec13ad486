import type { ElementHandle, Page } from 'playwright-core';
import { type LiveElement, uniqueTarget } from './element.js';
import { resolveTarget, type Target } from './locator.js';
import type { Redactor } from './redact.js';
import type { ElementRecord } from './render.js';

/**
 * Whether a target names its element by the text it read: a link "jane.doe@example.com" whose
 * read is that address. Replayed on another record, such a target finds the explored record's
 * element or none, never the one in the same place. A bound input's value in the target is no
 * such name: it is the input's placeholder in the capability, bound anew on every replay (the
 * message list's link named by the subject being looked for).
 */
export function namesByContent(target: Target, read: string, redactor?: Redactor): boolean {
  const own = (text: string) =>
    (redactor ? redactor.text(text).replace(/⟦[^⟧]*⟧/g, ' ') : text).replace(/\s+/g, ' ').trim();
  const value = own(read);
  if (value.length === 0) return false;
  const texts: string[] = [];
  const collect = (node: unknown): void => {
    if (typeof node === 'string') texts.push(own(node));
    else if (node && typeof node === 'object') Object.values(node).forEach(collect);
  };
  collect({ locator: target.locator, within: target.within });
  return texts.some(
    (text) => text.length > 0 && (text.includes(value) || (text.length >= 3 && value.includes(text))),
  );
}

/**
 * A target for the element a read took its value from, built from where it sits rather than
 * what it says: its table cell (row by the key column, the column, the element's role), the
 * value beside the text before it ("From"), or its position among its role's elements in its
 * named container or frame. Each candidate is checked on the live page to name this element
 * alone; undefined when none does.
 */
export async function structuralReadTarget(
  page: Page,
  element: LiveElement,
  record: ElementRecord | undefined,
  read: string,
  redactor?: Redactor,
): Promise<Target | undefined> {
  const handle = await element.locator.elementHandle({ timeout: 1_000 }).catch(() => null);
  if (!handle) return undefined;
  try {
    const frame = element.target.frame;
    const role = record?.role ?? element.role;
    const candidates: Target[] = [];
    if (record?.cell?.by === 'cell') {
      candidates.push({ frame, locator: { ...record.cell, element: { role } } });
    }
    if (record?.before) candidates.push({ frame, locator: { by: 'pair', label: record.before } });
    const anyOfRole = { by: 'role' as const, role, name: '', exact: false };
    if (record?.container) candidates.push({ frame, within: record.container, locator: anyOfRole });
    candidates.push({ frame, locator: anyOfRole });
    for (const candidate of candidates) {
      if (namesByContent(candidate, read, redactor)) continue;
      const found =
        candidate.locator.by === 'pair'
          ? await holdsOnly(page, candidate, handle)
          : await uniqueTarget(page, candidate, handle);
      if (found) return found;
    }
    return undefined;
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}

/** A pair's value is the element or the one box holding it, and reads the same. */
async function holdsOnly(page: Page, target: Target, handle: ElementHandle): Promise<Target | undefined> {
  const locator = await resolveTarget(page, target);
  if ((await locator.count().catch(() => 0)) !== 1) return undefined;
  const holds = await locator
    .evaluate(
      (element, other) =>
        (element === other || element.contains(other as Node)) &&
        // biome-ignore lint/performance/useDomNodeTextContent: the value is the text a person sees.
        (element as HTMLElement).innerText.trim() === (other as HTMLElement).innerText.trim(),
      handle,
    )
    .catch(() => false);
  return holds ? target : undefined;
}
