import { z } from 'zod';
import type { Capability, FieldType } from '../capability/capability.js';
import { parseTypedValue, type TypedValue } from '../capability/typed.js';
import { LiftError } from '../contract/errors.js';

const INPUT_TYPES: Record<FieldType, z.ZodType> = {
  string: z.string().min(1).max(500),
  number: z.number().finite(),
  integer: z.number().int(),
  boolean: z.boolean(),
};

/** The Zod schema of a capability's inputs (strict: an unknown input is a mistake). */
export function inputSchemaOf(capability: Capability): z.ZodObject {
  return z.strictObject(
    Object.fromEntries(capability.inputs.map((input) => [input.name, INPUT_TYPES[input.type]])) as Record<
      string,
      z.ZodType
    >,
  );
}

export function outputSchemaOf(capability: Capability): z.ZodObject {
  return z.strictObject(
    Object.fromEntries(capability.outputs.map((output) => [output.name, INPUT_TYPES[output.type]])) as Record<
      string,
      z.ZodType
    >,
  );
}

export type OutputValue = TypedValue;

/** Parses text read from the page into the declared type, or undefined when it does not hold one. */
export const parseTyped = parseTypedValue;

export function validateInputs(capability: Capability, raw: unknown): Record<string, OutputValue> {
  const parsed = inputSchemaOf(capability).safeParse(raw);
  if (parsed.success) return parsed.data as Record<string, OutputValue>;
  const example = Object.fromEntries(
    capability.inputs.map((input) => [
      input.name,
      input.type === 'string' ? '…' : input.type === 'boolean' ? true : 1,
    ]),
  );
  throw new LiftError(
    'BAD_INPUT',
    `Invalid input for ${capability.name}:\n${z.prettifyError(parsed.error)}`,
    {
      hint: `A correct input: ${JSON.stringify(example)}. Nothing was sent to the page.`,
      outcome: 'not_started',
    },
  );
}
