import { z } from 'zod';
import type { JsonSchema } from '../../contract/json-schema.js';
import { linearPattern, type TextPattern } from '../../contract/pattern.js';

/** Bounds written into an input schema when the description gives none: a caller is not a trusted operator. */
export const DEFAULT_BOUNDS = { maxLength: 2_000, maxItems: 100, minimum: -1e12, maximum: 1e12 } as const;

export interface ZodOptions {
  /** Inputs reject unknown fields; responses ignore them (an API may add fields without breaking us). */
  strict: boolean;
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

/**
 * Converts the JSON Schema dialect of OpenAPI 3.0 and 3.1 into Zod: types, enums, string
 * length and pattern, number bounds, array bounds, required properties, nullable, allOf,
 * oneOf and anyOf. Keywords Zod cannot check are ignored rather than guessed.
 */
export function toZod(schema: JsonSchema, options: ZodOptions): z.ZodType {
  const base = convert(schema, options);
  const nullable = schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null'));
  const described = schema.description ? base.describe(String(schema.description).slice(0, 300)) : base;
  return nullable ? described.nullable() : described;
}

function convert(schema: JsonSchema, options: ZodOptions): z.ZodType {
  if (schema.enum) {
    const values = schema.enum.filter((value) => value !== null);
    if (values.length > 0 && values.every((value) => typeof value === 'string')) {
      return z.enum(values as [string, ...string[]]);
    }
    const literals = values.map((value) => z.literal(value as string | number | boolean));
    return literals.length === 1 ? literals[0]! : z.union(literals as unknown as [z.ZodType, z.ZodType]);
  }
  if (schema.const !== undefined) return z.literal(schema.const as string | number | boolean);
  if (Array.isArray(schema.allOf)) return allOf(schema.allOf as JsonSchema[], options);
  const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (variants && variants.length > 0) {
    const members = variants.map((variant) => toZod(variant, options));
    return members.length === 1 ? members[0]! : z.union(members as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  }
  const types = typesOf(schema).filter((type) => type !== 'null');
  if (types.length > 1) {
    const members = types.map((type) => convert({ ...schema, type }, options));
    return z.union(members as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  }
  switch (types[0]) {
    case 'string':
      return stringSchema(schema);
    case 'integer':
    case 'number':
      return numberSchema(schema, types[0] === 'integer');
    case 'boolean':
      return z.boolean();
    case 'array': {
      let array = z.array(schema.items ? toZod(schema.items, options) : z.unknown());
      if (schema.minItems !== undefined) array = array.min(schema.minItems);
      if (schema.maxItems !== undefined) array = array.max(schema.maxItems);
      return array;
    }
    case 'object':
      return objectSchema(schema, options);
    default:
      return z.unknown();
  }
}

function stringSchema(schema: JsonSchema): z.ZodType {
  let text = z.string();
  if (schema.minLength !== undefined) text = text.min(schema.minLength);
  if (schema.maxLength !== undefined) text = text.max(schema.maxLength);
  return schema.pattern ? withPattern(text, schema.pattern) : text;
}

/**
 * The description's pattern, checked on RE2 (linear time) so that no description can make a
 * value's check stall the event loop. A pattern RE2 cannot run (look-around, back-references)
 * is left to the API to enforce; either way the JSON Schema still shows it.
 */
function withPattern(text: z.ZodString, pattern: string): z.ZodType {
  let compiled: TextPattern | undefined;
  try {
    compiled = linearPattern(pattern, { scope: 'whole', what: 'API description pattern' });
  } catch {
    compiled = undefined;
  }
  const checked = compiled ? text.refine((value) => compiled.test(value), `must match ${pattern}`) : text;
  return checked.meta({ pattern });
}

function numberSchema(schema: JsonSchema, integer: boolean): z.ZodType {
  let number = integer ? z.number().int() : z.number();
  if (schema.minimum !== undefined) number = number.min(schema.minimum);
  if (schema.maximum !== undefined) number = number.max(schema.maximum);
  if (typeof schema.exclusiveMinimum === 'number') number = number.gt(schema.exclusiveMinimum);
  if (typeof schema.exclusiveMaximum === 'number') number = number.lt(schema.exclusiveMaximum);
  return number;
}

function objectSchema(schema: JsonSchema, options: ZodOptions): z.ZodType {
  const required = new Set(schema.required ?? []);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const converted = toZod(property, options);
    shape[name] = required.has(name) ? converted : converted.optional();
  }
  if (Object.keys(shape).length === 0 && schema.additionalProperties !== false) {
    const values =
      typeof schema.additionalProperties === 'object'
        ? toZod(schema.additionalProperties, options)
        : z.unknown();
    return z.record(z.string(), values);
  }
  // A description that forbids extra properties is taken at its word, also for responses.
  return options.strict || schema.additionalProperties === false
    ? z.strictObject(shape)
    : z.looseObject(shape);
}

function allOf(parts: JsonSchema[], options: ZodOptions): z.ZodType {
  const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
  for (const part of parts) {
    Object.assign(merged.properties!, part.properties ?? {});
    merged.required!.push(...(part.required ?? []));
  }
  return objectSchema(merged, options);
}

/** An anchored pattern without open-ended repetition (`^T-\d{6}$`) already bounds the length. */
function boundedPattern(pattern: unknown): boolean {
  return typeof pattern === 'string' && /^\^.*\$$/.test(pattern) && !/[*+]|\{\d+,\}/.test(pattern);
}

/** Adds the default bounds to every unbounded string, array and number of an input schema. */
export function withBounds(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  const types = typesOf(schema);
  if (
    types.includes('string') &&
    !schema.enum &&
    out.maxLength === undefined &&
    !boundedPattern(schema.pattern)
  ) {
    out.maxLength = DEFAULT_BOUNDS.maxLength;
  }
  if ((types.includes('integer') || types.includes('number')) && !schema.enum) {
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = DEFAULT_BOUNDS.minimum;
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = DEFAULT_BOUNDS.maximum;
  }
  if (types.includes('array')) {
    if (out.maxItems === undefined) out.maxItems = DEFAULT_BOUNDS.maxItems;
    if (schema.items) out.items = withBounds(schema.items);
  }
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, withBounds(v)]),
    );
  }
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map((item) => withBounds(item as JsonSchema));
  }
  return out;
}
