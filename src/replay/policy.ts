import type { Capability } from '../capability/capability.js';
import { parsePolicy, type UiPolicy } from '../rungs/ui/policy.js';

/**
 * What a replay's page may request when the caller names no policy: the capability's own
 * origin, any path there. A screen that loads from a second origin (a CDN, a sign-in
 * service) needs the policy it was discovered under, passed as ReplayOptions.policy.
 */
export function replayPolicy(capability: Capability): UiPolicy {
  return parsePolicy({ origins: [capability.preconditions.origin] });
}
