import type { EffectClass } from '../contract/effects.js';
import { isCaretKey } from '../rungs/ui/actions.js';
import type { Capability, Step } from './capability.js';

/**
 * Steps that can change the application's state once they reach the page: a click, a key
 * press (Enter submits a form), a box checked, an option chosen (a change handler may
 * submit). Typing into a field, waiting, reading and loading a page by URL send nothing
 * on their own. Replay marks the effect started at the first of these; an unregistered
 * capability with one of them is treated as irreversible.
 */
const CHANGES_STATE: Readonly<Record<Step['op'], boolean>> = {
  click: true,
  press: true,
  check: true,
  select: true,
  fill: false,
  type: false,
  navigate: false,
  wait_for: false,
  read: false,
};

export function canChangeState(step: Step): boolean {
  // A caret key only moves the caret in a field.
  if (step.op === 'press' && isCaretKey(step.key)) return false;
  return CHANGES_STATE[step.op];
}

/**
 * The side-effect class of a capability nobody registered (a file given to `lift replay`):
 * irreversible, so its gate asks for a signature, unless none of its steps can change state.
 */
export function unreviewedEffectClass(capability: Capability): EffectClass {
  return capability.steps.some(canChangeState) ? 'irreversible' : 'read';
}
