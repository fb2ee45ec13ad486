import type { Capability } from '../capability/capability.js';
import { LiftError } from '../contract/errors.js';
import type { Registration } from './registrations.js';
import type { CapabilityToolDeps } from './tool.js';

/** What `lift replay REF` runs, and whether a reviewer registered exactly that revision. */
export interface ReplayTarget {
  capability: Capability;
  revision: string;
  registration: Registration | undefined;
}

function registrationOf(
  deps: CapabilityToolDeps,
  capability: Capability,
  revision: string,
): Registration | undefined {
  const registration = deps.registrations.get(capability.name);
  return registration?.revision === revision ? registration : undefined;
}

/**
 * A registered name runs its registered revision (as `lift call NAME` does); a stored
 * revision or prefix runs that revision; a capability file is saved to the store first, so
 * what a held call runs once approved is exactly what was asked for. `file` reads and
 * parses the reference as a file, or answers undefined when there is no such file.
 */
export function resolveReplayTarget(
  deps: CapabilityToolDeps,
  reference: string,
  file: (path: string) => unknown | undefined,
): ReplayTarget {
  const registered = deps.registrations.get(reference);
  if (registered) {
    const capability = deps.capabilities.load(registered.revision);
    return { capability, revision: registered.revision, registration: registered };
  }
  const stored = deps.capabilities.resolve(reference);
  if (stored) {
    const capability = deps.capabilities.load(stored.revision);
    return {
      capability,
      revision: stored.revision,
      registration: registrationOf(deps, capability, stored.revision),
    };
  }
  const raw = file(reference);
  if (raw === undefined) {
    throw new LiftError('NOT_FOUND', `No stored capability or capability file matches '${reference}'.`, {
      hint: 'Give a registered name, a revision (or a unique prefix of one), or a capability JSON file (lift capabilities list).',
      outcome: 'not_started',
    });
  }
  const { capability, revision } = deps.capabilities.save(raw);
  return { capability, revision, registration: registrationOf(deps, capability, revision) };
}
