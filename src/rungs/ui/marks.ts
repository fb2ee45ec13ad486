import { blockedName, clickAllowed, type UiPolicy } from './policy.js';
import type { ElementRecord } from './render.js';
import { classifyAction } from './safety.js';

/**
 * Why an element's line in an observation is marked: the session signs password fields in
 * itself, the policy blocks the name or does not allow the click, or the safety classifier
 * refuses it unattended. Undefined for an element a model may act on.
 */
export function markOf(policy: UiPolicy, attended: boolean, element: ElementRecord): string | undefined {
  if (element.password) return 'signed in by the session only';
  if (!['button', 'link', 'menuitem', 'tab'].includes(element.role)) return undefined;
  if (blockedName(policy, element.name)) return 'blocked by policy';
  if (!clickAllowed(policy, element.name)) return 'not an allowed click';
  const { risk } = classifyAction({ op: 'click', target: { ref: element.ref } }, element);
  if (risk === 'high' && !attended) return 'high risk: refused unattended';
  return undefined;
}
