import type { JsonSchema } from '../contract/json-schema.js';

/** Keywords OpenAI's strict mode accepts as they are. */
export const STRICT_KEYWORDS = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  '$defs',
  '$ref',
]);
const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
/** Dropped from the strict form: Lift enforces or applies them when the call arrives. */
const ADVISORY_KEYWORDS = new Set(['minLength', 'maxLength', 'title', 'default', 'propertyNames', 'format']);

/** Why a schema cannot be strict, or the strict form of it. */
export type StrictResult = { strict: true; schema: JsonSchema } | { strict: false; reason: string };

/** A schema that accepts any JSON value: strict mode cannot say that, so it travels as JSON text. */
export function isAnyValue(schema: JsonSchema): boolean {
  return !['type', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', '$ref', 'properties', 'items', 'not'].some(
    (key) => key in schema,
  );
}

/** An object with free keys (a Zod record): strict mode takes it as a list of key and value entries. */
export function recordValues(schema: JsonSchema): JsonSchema | undefined {
  if (schema.type !== 'object' || Object.keys(schema.properties ?? {}).length > 0) return undefined;
  const values = schema.additionalProperties;
  if (values === true) return {};
  return typeof values === 'object' ? values : undefined;
}

/** Whether a property already accepts null, so that null sent for it means null, not "left out". */
export function acceptsNull(schema: JsonSchema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('null') || schema.const === null || schema.enum?.includes(null)) return true;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(acceptsNull);
}

/**
 * Bounds and defaults strict mode rejects but Lift enforces or applies when the call arrives:
 * they move into the description, so the model still reads them.
 */
function advisory(schema: JsonSchema): string[] {
  const notes: string[] = [];
  if (schema.minLength !== undefined && schema.maxLength !== undefined) {
    notes.push(`${schema.minLength} to ${schema.maxLength} characters`);
  } else if (schema.maxLength !== undefined) notes.push(`at most ${schema.maxLength} characters`);
  else if (schema.minLength !== undefined) notes.push(`at least ${schema.minLength} characters`);
  if (schema.format !== undefined && !STRICT_FORMATS.has(schema.format))
    notes.push(`format ${schema.format}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

function described(schema: JsonSchema, notes: string[]): JsonSchema {
  if (notes.length === 0) return schema;
  return { ...schema, description: [schema.description, `(${notes.join(', ')})`].filter(Boolean).join(' ') };
}

/** The strict form of a property the caller may leave out: required, and null when left out. */
function nullable(schema: JsonSchema): JsonSchema {
  if (acceptsNull(schema)) return schema;
  if (typeof schema.type === 'string' && schema.enum === undefined && schema.const === undefined)
    return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

function strictAll(entries: Array<[string, JsonSchema]>, path: string): StrictResult[] {
  return entries.map(([name, schema]) => strictForm(schema, `${path}.${name}`));
}

function strictRecord(schema: JsonSchema, values: JsonSchema, path: string): StrictResult {
  const names = (schema.propertyNames as JsonSchema | undefined) ?? { type: 'string' };
  const key = strictForm(names, `${path}.key`);
  const value = strictForm(values, `${path}.value`);
  if (!key.strict) return key;
  if (!value.strict) return value;
  const entry = {
    type: 'object',
    properties: { key: key.schema, value: value.schema },
    required: ['key', 'value'],
    additionalProperties: false,
  };
  const description = [schema.description, '(a list of key and value entries)'].filter(Boolean).join(' ');
  return { strict: true, schema: { type: 'array', description, items: entry } };
}

function strictObject(schema: JsonSchema, out: JsonSchema, path: string): StrictResult {
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false)
    return { strict: false, reason: `${path}: an object with both declared and free keys` };
  const required = new Set(schema.required ?? []);
  const properties: Record<string, JsonSchema> = {};
  const entries = Object.entries(schema.properties ?? {});
  for (const [index, inner] of strictAll(entries, path).entries()) {
    const name = entries[index]?.[0] ?? '';
    if (!inner.strict) return inner;
    properties[name] = required.has(name) ? inner.schema : nullable(inner.schema);
  }
  return {
    strict: true,
    schema: { ...out, properties, required: Object.keys(properties), additionalProperties: false },
  };
}

function strictVariants(variants: JsonSchema[], path: string): { anyOf: JsonSchema[] } | StrictResult {
  const anyOf: JsonSchema[] = [];
  for (const inner of strictAll(
    [...variants.entries()].map(([i, v]) => [`anyOf[${i}]`, v]),
    path,
  )) {
    if (!inner.strict) return inner;
    anyOf.push(inner.schema);
  }
  return { anyOf };
}

/**
 * A tuple ([width, height]) as strict mode can say it: a list whose items are any of the
 * tuple's kinds, its length in minItems and maxItems. Lift checks each position when the
 * call arrives, so a model that swaps them gets BAD_INPUT, never a wrong call.
 */
function tupleAsList(schema: JsonSchema): JsonSchema {
  const { prefixItems, items: _rest, ...list } = schema;
  const kinds = [
    ...new Map((prefixItems as JsonSchema[]).map((kind) => [JSON.stringify(kind), kind])).values(),
  ];
  return { ...list, items: kinds.length === 1 ? kinds[0]! : { anyOf: kinds } };
}

/**
 * OpenAI's strict form of a JSON Schema: every property required (the optional ones
 * nullable, null meaning "left out"), records as key and value entries, free values as JSON
 * text, no keyword strict mode refuses. `fromOpenAiArguments` undoes each change on the way in.
 */
export function strictForm(schema: JsonSchema, path: string): StrictResult {
  if (Array.isArray(schema.prefixItems)) return strictForm(tupleAsList(schema), path);
  if (isAnyValue(schema))
    return { strict: true, schema: described({ ...schema, type: 'string' }, ['any value, as JSON text']) };
  const values = recordValues(schema);
  if (values) return strictRecord(schema, values, path);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ADVISORY_KEYWORDS.has(key) && !(key === 'format' && STRICT_FORMATS.has(String(value)))) continue;
    if (key === 'oneOf') continue;
    if (!STRICT_KEYWORDS.has(key))
      return { strict: false, reason: `${path}: '${key}' is not allowed in strict mode` };
    out[key] = value;
  }
  let result: StrictResult = { strict: true, schema: described(out, advisory(schema)) };
  if (schema.type === 'object' || schema.properties) result = strictObject(schema, result.schema, path);
  if (result.strict && schema.items !== undefined) {
    const items = strictForm(schema.items, `${path}.items`);
    result = items.strict ? { strict: true, schema: { ...result.schema, items: items.schema } } : items;
  }
  const variants = schema.anyOf ?? schema.oneOf;
  if (result.strict && variants !== undefined) {
    const inner = strictVariants(variants, path);
    result = 'anyOf' in inner ? { strict: true, schema: { ...result.schema, anyOf: inner.anyOf } } : inner;
  }
  if (result.strict && schema.$defs !== undefined) {
    const defs: Record<string, JsonSchema> = {};
    for (const [name, definition] of Object.entries(schema.$defs as Record<string, JsonSchema>)) {
      const inner = strictForm(definition, `${path}.$defs.${name}`);
      if (!inner.strict) return inner;
      defs[name] = inner.schema;
    }
    result = { strict: true, schema: { ...result.schema, $defs: defs } };
  }
  return result;
}
