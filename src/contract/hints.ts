import type { EffectClass } from './effects.js';

/** MCP's four behaviour hints. Every one is set: MCP's defaults assume the worst. */
export interface BehaviourHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * The hints follow a declared effect: a read is read-only; an irreversible effect is
 * destructive; a repeat key makes a write idempotent; effects that reach people or systems
 * outside the tool's own record (visible, irreversible) are open-world. Every tool Lift
 * serves, the four explorer tools included, gets its hints from here and nowhere else.
 */
export function behaviourHints(effect: EffectClass, repeatKey: boolean): BehaviourHints {
  return {
    readOnlyHint: effect === 'read',
    destructiveHint: effect === 'irreversible',
    idempotentHint: repeatKey,
    openWorldHint: effect === 'visible' || effect === 'irreversible',
  };
}
