import { LiftError } from '../contract/errors.js';
import { sha256 } from '../runtime/canonical.js';
import { type Awaitable, andThen } from '../store/awaitable.js';
import type { CapabilityRecords, StoredCapability } from '../store/records.js';
import { type Capability, canonicalCapability, revisionOf, validateCapability } from './capability.js';

export type { StoredCapability } from '../store/records.js';

const REVISION = /^[0-9a-f]{64}$/;

/**
 * Capabilities by content address, kept by the store (files in the home, or rows of the shared
 * store). Only a validated capability is ever kept, and every read re-hashes the content, so a
 * tampered one is refused rather than replayed.
 */
export class CapabilityStore {
  readonly #records: CapabilityRecords;

  constructor(records: CapabilityRecords) {
    this.#records = records;
  }

  /** Validates and keeps a capability; returns its revision. Invalid capabilities are never kept. */
  save(raw: unknown): Awaitable<{ revision: string; capability: Capability; file: string }> {
    const result = validateCapability(raw);
    if (!result.success) {
      throw new LiftError('BAD_INPUT', `The capability is not valid: ${result.issues.join('; ')}`, {
        hint: 'Nothing was written. Fix the listed fields (or rediscover) and save again.',
        details: { issues: result.issues },
      });
    }
    const capability = result.data;
    const revision = revisionOf(capability);
    const kept = this.#records.put({
      revision,
      name: capability.name,
      intent: capability.intent,
      steps: capability.steps.length,
      text: canonicalCapability(capability),
    });
    return andThen(kept, (file) => ({ revision, capability, file }));
  }

  /** Loads a revision, re-hashing its text first: content that does not match is REVISION_MISMATCH. */
  load(revision: string): Awaitable<Capability> {
    if (!REVISION.test(revision))
      throw new LiftError('BAD_INPUT', `'${revision}' is not a SHA-256 revision.`);
    return andThen(this.#records.text(revision), (text) => {
      if (text === undefined) {
        throw new LiftError('NOT_FOUND', `No capability has revision ${revision}.`, {
          hint: 'List the stored capabilities with lift capabilities list.',
        });
      }
      return verifiedCapability(text, revision);
    });
  }

  /** Finds a stored capability by name (its newest revision), full revision or revision prefix. */
  async resolve(reference: string): Promise<StoredCapability | undefined> {
    const byName = await this.#records.newest(reference);
    if (byName) return byName;
    if (!/^[0-9a-f]{6,64}$/.test(reference)) return undefined;
    const rows = await this.#records.withPrefix(reference, 2);
    return rows.length === 1 ? rows[0] : undefined;
  }

  list(): Awaitable<StoredCapability[]> {
    return this.#records.list();
  }
}

/** Parses stored text, checks that it hashes to `revision`, and validates it. */
export function verifiedCapability(text: string, revision: string): Capability {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LiftError('REVISION_MISMATCH', `The capability file for ${revision.slice(0, 12)} is not JSON.`);
  }
  const result = validateCapability(parsed);
  if (!result.success) {
    throw new LiftError(
      'REVISION_MISMATCH',
      `The capability for ${revision.slice(0, 12)} no longer validates.`,
      {
        details: { issues: result.issues },
      },
    );
  }
  const actual = revisionOf(result.data);
  if (actual !== revision || sha256(text) !== revision) {
    throw new LiftError(
      'REVISION_MISMATCH',
      `Capability content hashes to ${actual.slice(0, 12)}, not ${revision.slice(0, 12)}.`,
      {
        details: { expected: revision, actual },
      },
    );
  }
  return result.data;
}
