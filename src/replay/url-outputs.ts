import type { Page } from 'playwright-core';
import type { Capability } from '../capability/capability.js';
import { readSource } from '../capability/page-outputs.js';
import { LiftError } from '../contract/errors.js';
import { type OutputValue, parseTyped } from './values.js';

/**
 * The outputs a capability takes from the resulting page rather than a read step: its URL
 * (a created record's address, or its id as one query parameter), its status or flash message,
 * or a link to the record. A page without one is no answer: the write landed (the checkpoint
 * passed), but its id cannot be given, and a guess would be a false success.
 */
export async function pageOutputs(page: Page, capability: Capability): Promise<Record<string, OutputValue>> {
  const outputs: Record<string, OutputValue> = {};
  for (const spec of capability.outputs) {
    if (!spec.from) continue;
    const reading = await readSource(page, spec.from);
    const value = 'raw' in reading ? parseTyped(reading.raw, spec.type) : undefined;
    if (value === undefined) {
      const why = 'missing' in reading ? reading.missing : `what it holds is not a ${spec.type}`;
      throw new LiftError('CHECK_FAILED', `The resulting page gives no ${spec.name}: ${why}.`, {
        hint: `The steps ran and the checkpoint passed, so the write landed; only ${spec.name} could not be read. Look the record up before writing again.`,
        outcome: 'unknown',
      });
    }
    outputs[spec.name] = value;
  }
  return outputs;
}
