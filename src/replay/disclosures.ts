import type { Capability, Postcondition } from '../capability/capability.js';
import type { EffectClass } from '../contract/effects.js';
import type { Target } from '../rungs/ui/locator.js';

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

function sameTarget(a: Target, b: Target): boolean {
  return canonical(a) === canonical(b);
}

/** JSON with keys in one order: a postcondition's target and a step's are the same whatever wrote them. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
