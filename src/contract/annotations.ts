import type { EffectClass } from './effects.js';

/** The four MCP hints. Every one is set explicitly: MCP's defaults assume the worst. */
export interface EffectHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * The hints follow the effect: a read is read-only; an irreversible effect is destructive;
 * a repeat key (request_id) makes a write idempotent; effects that reach people or systems
 * outside the tool's own record (visible, irreversible) are open-world.
 */
export function effectHints(effect: EffectClass, idempotent: boolean): EffectHints {
  return {
    readOnlyHint: effect === 'read',
    destructiveHint: effect === 'irreversible',
    idempotentHint: idempotent,
    openWorldHint: effect === 'visible' || effect === 'irreversible',
  };
}
