import type { Locator, Page } from 'playwright-core';
import type { Postcondition, Value } from '../capability/capability.js';
import { fieldHolds, readField } from '../rungs/ui/field-value.js';
import { resolveTarget } from '../rungs/ui/locator.js';
import { describeTarget, probeTarget, waitVisible } from './targets.js';

/** A postcondition that always holds: the step itself already confirmed its effect. */
export const NOTHING: Postcondition = { kind: 'none' };

/** How long one look at a postcondition waits before the page is classified again. */
export const CHUNK_MS = 200;

/**
 * Whether a (bound) postcondition holds now, after a short wait; 'ambiguous' when its target
 * matches more than one element, which no retry will fix.
 */
export async function holds(
  page: Page,
  expect: Postcondition | undefined,
  bound: (value: Value) => string,
): Promise<boolean | 'ambiguous'> {
  if (!expect || expect.kind === 'none') return true;
  const seen = await waitVisible(page, expect.target, CHUNK_MS);
  // Only a visible postcondition calls several matches ambiguous; a field's is not shown yet.
  if (seen !== 'visible') return seen === 'ambiguous' && expect.kind === 'visible' ? 'ambiguous' : false;
  if (expect.kind === 'visible') return true;
  return fieldMatches(await resolveTarget(page, expect.target), expect, bound, CHUNK_MS);
}

/**
 * Whether a (bound) postcondition holds, from one look that does not wait. `holds` gives the
 * page CHUNK_MS, and a starved renderer can miss that every time while what a step expects is
 * there: a wait ends on this look. A field found is read within `readMs`.
 */
export async function holdsNow(
  page: Page,
  expect: Postcondition | undefined,
  bound: (value: Value) => string,
  readMs: number,
): Promise<boolean | 'ambiguous'> {
  if (!expect || expect.kind === 'none') return true;
  const { locator, count, visible } = await probeTarget(page, expect.target, { visible: true });
  if (count > 1) return 'ambiguous';
  if (count === 0 || !visible) return false;
  if (expect.kind === 'visible') return true;
  return fieldMatches(locator, expect, bound, readMs);
}

/** Whether the shown field holds the value or checked state the postcondition names. */
async function fieldMatches(
  locator: Locator,
  expect: Extract<Postcondition, { kind: 'value' | 'checked' }>,
  bound: (value: Value) => string,
  readMs: number,
): Promise<boolean> {
  if (expect.kind === 'value') {
    // A rich-text editor holds text, not a value: fieldHolds reads both.
    const held = await readField(locator.first(), readMs).catch(() => undefined);
    return held !== undefined && fieldHolds(held, bound(expect.equals));
  }
  const checked = await locator
    .first()
    .isChecked({ timeout: readMs })
    .catch(() => !expect.checked);
  return checked === expect.checked;
}

export function describePostcondition(expect: Postcondition | undefined): string {
  if (!expect) return 'page loaded';
  switch (expect.kind) {
    case 'none':
      return 'nothing';
    case 'visible':
      return `${describeTarget(expect.target)} visible`;
    case 'value':
      return `${describeTarget(expect.target)} holds the value`;
    case 'checked':
      return `${describeTarget(expect.target)} ${expect.checked ? 'checked' : 'unchecked'}`;
  }
}
