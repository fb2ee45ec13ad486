import type { SuccessEnvelope } from '../contract/envelope.js';
import { LiftError } from '../contract/errors.js';

/** `$plan.fields.total` or `$view.files.front`: a value of an earlier step's envelope. */
const REFERENCE = /\$([a-z][a-z0-9_]*)\.(fields|files)\.([A-Za-z_][A-Za-z0-9_]*)/g;
const WHOLE = new RegExp(`^${REFERENCE.source}$`);

export interface Reference {
  step: string;
  part: 'fields' | 'files';
  name: string;
  /** As written, e.g. `$plan.files.plan`. */
  text: string;
}

/** Every reference written anywhere inside a step's arguments. */
export function referencesIn(value: unknown): Reference[] {
  if (typeof value === 'string') {
    return [...value.matchAll(REFERENCE)].map((match) => ({
      step: match[1]!,
      part: match[2] as 'fields' | 'files',
      name: match[3]!,
      text: match[0],
    }));
  }
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(referencesIn);
  return [];
}

/** Where a step's arguments hold references (their values come from earlier steps), as key paths. */
export function referencePaths(value: unknown, at: readonly PropertyKey[] = []): PropertyKey[][] {
  if (typeof value === 'string') return referencesIn(value).length > 0 ? [[...at]] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => referencePaths(item, [...at, index]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => referencePaths(item, [...at, key]));
  return [];
}

function lookUp(reference: Reference, done: ReadonlyMap<string, SuccessEnvelope>, stepId: string): unknown {
  const envelope = done.get(reference.step);
  const source = envelope?.[reference.part] as Record<string, unknown> | undefined;
  if (!source || !(reference.name in source)) {
    const known = Object.keys(source ?? {}).join(', ') || 'none';
    throw new LiftError(
      'BAD_INPUT',
      `Step '${stepId}': ${reference.text} names nothing; step '${reference.step}' returned ${reference.part} ${known}.`,
      {
        hint: `Refer to one of the ${reference.part} step '${reference.step}' returned, or pass the value itself.`,
        outcome: 'not_started',
      },
    );
  }
  return source[reference.name];
}

/**
 * Replaces references with the values they name. An argument that is exactly one reference takes the
 * value as it is (a number stays a number); a reference inside longer text is written into the text.
 */
export function resolveReferences(
  value: unknown,
  done: ReadonlyMap<string, SuccessEnvelope>,
  stepId: string,
): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookUp(referencesIn(value)[0]!, done, stepId);
    return value.replace(REFERENCE, (text) => {
      const found = lookUp(referencesIn(text)[0]!, done, stepId);
      return typeof found === 'string' ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => resolveReferences(item, done, stepId));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveReferences(item, done, stepId)]),
    );
  }
  return value;
}
