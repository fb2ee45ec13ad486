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

async function registrationOf(
  deps: CapabilityToolDeps,
  capability: Capability,
  revision: string,
): Promise<Registration | undefined> {
  const registration = await deps.registrations.get(capability.name);
  return registration?.revision === revision ? registration : undefined;
}

/**
 * A registered name runs its registered revision (as `lift call NAME` does); a stored
 * revision or prefix runs that revision; a capability file is saved to the store first, so
 * what a held call runs once approved is exactly what was asked for. `file` reads and
 * parses the reference as a file, or answers undefined when there is no such file.
 */
export async function resolveReplayTarget(
  deps: CapabilityToolDeps,
  reference: string,
  file: (path: string) => unknown | undefined,
): Promise<ReplayTarget> {
  const registered = await deps.registrations.get(reference);
  if (registered) {
    const capability = await deps.capabilities.load(registered.revision);
    return { capability, revision: registered.revision, registration: registered };
  }
  const stored = await deps.capabilities.resolve(reference);
  if (stored) {
    const capability = await deps.capabilities.load(stored.revision);
    return {
      capability,
      revision: stored.revision,
      registration: await registrationOf(deps, capability, stored.revision),
    };
  }
  const raw = file(reference);
  if (raw === undefined) {
    const names = (await deps.registrations.list()).map((entry) => entry.name).sort();
    throw new LiftError('NOT_FOUND', `No stored capability or capability file matches '${reference}'.`, {
      hint: `Give a registered name (${names.length > 0 ? names.join(', ') : 'none is registered yet'}), a revision (or a unique prefix of one), or a capability JSON file (lift capabilities list).`,
      outcome: 'not_started',
      details: { capabilities: names },
    });
  }
  const { capability, revision } = await deps.capabilities.save(raw);
  return { capability, revision, registration: await registrationOf(deps, capability, revision) };
}
