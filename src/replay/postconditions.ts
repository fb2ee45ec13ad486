import type { Page } from 'playwright-core';
import type { Postcondition, Value } from '../capability/capability.js';
import { fieldHolds, readField } from '../rungs/ui/field-value.js';
import { resolveTarget } from '../rungs/ui/locator.js';
import { describeTarget, waitVisible } from './targets.js';

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
  if (!expect) return true;
  switch (expect.kind) {
    case 'none':
      return true;
    case 'visible': {
      const seen = await waitVisible(page, expect.target, CHUNK_MS);
      return seen === 'ambiguous' ? 'ambiguous' : seen === 'visible';
    }
    case 'value': {
      if ((await waitVisible(page, expect.target, CHUNK_MS)) !== 'visible') return false;
      const locator = await resolveTarget(page, expect.target);
      // A rich-text editor holds text, not a value: fieldHolds reads both.
      const held = await readField(locator.first(), CHUNK_MS).catch(() => undefined);
      return held !== undefined && fieldHolds(held, bound(expect.equals));
    }
    case 'checked': {
      if ((await waitVisible(page, expect.target, CHUNK_MS)) !== 'visible') return false;
      const locator = await resolveTarget(page, expect.target);
      const checked = await locator
        .first()
        .isChecked({ timeout: CHUNK_MS })
        .catch(() => !expect.checked);
      return checked === expect.checked;
    }
  }
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
