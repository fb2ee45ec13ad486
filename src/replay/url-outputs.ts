import type { Capability } from '../capability/capability.js';
import { LiftError } from '../contract/errors.js';
import { type OutputValue, parseTyped } from './values.js';

/**
 * The outputs a capability takes from the URL of the document its last step led to (a
 * created record's address, or its id as one query parameter). A URL without one is no
 * answer: the write landed (the checkpoint passed), but its id cannot be given.
 */
export function urlOutputs(address: string, capability: Capability): Record<string, OutputValue> {
  const outputs: Record<string, OutputValue> = {};
  const url = new URL(address);
  for (const spec of capability.outputs) {
    if (!spec.from) continue;
    const { param } = spec.from.url;
    const value = parseTyped(param === undefined ? url.href : (url.searchParams.get(param) ?? ''), spec.type);
    if (value === undefined) {
      throw new LiftError(
        'CHECK_FAILED',
        `The resulting page's URL carries no ${param ?? 'address'} that is a ${spec.type} for ${spec.name}.`,
        {
          hint: `The steps ran and the checkpoint passed, so the write landed; only ${spec.name} could not be read. Look the record up before writing again.`,
          outcome: 'unknown',
        },
      );
    }
    outputs[spec.name] = value;
  }
  return outputs;
}
