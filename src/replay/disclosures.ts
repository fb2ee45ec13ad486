import type { Capability, Postcondition } from '../capability/capability.js';
import type { EffectClass } from '../contract/effects.js';
import type { Target } from '../rungs/ui/locator.js';
import { canonicalJson } from '../runtime/canonical.js';

/**
 * What step `index` may settle on instead of its own postcondition: a disclosure the
 * application remembers open. The step waits for a control (Roundcube's "Details") that the
 * next step clicks to show something (the header "From"); an application that kept it shown
 * since the last visit hides the control instead, and the replay waited for it in vain. When
 * what the click would show is there and the control is not, the click has nothing to do.
 * Only in a read: a write never passes over a click, which could be the one that sends.
 */
export function disclosureAfter(
  capability: Capability,
  index: number,
  effectClass: EffectClass | undefined,
): Postcondition | undefined {
  if (effectClass !== 'read') return undefined;
  const step = capability.steps[index];
  const next = capability.steps[index + 1];
  if (step?.expect.kind !== 'visible' || next?.op !== 'click' || next.expect.kind !== 'visible')
    return undefined;
  return sameTarget(step.expect.target, next.target) ? next.expect : undefined;
}

/** The same target whatever wrote it: a postcondition's and a step's may order their keys differently. */
function sameTarget(a: Target, b: Target): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
