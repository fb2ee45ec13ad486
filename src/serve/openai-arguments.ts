import type { AnyTool } from '../contract/define-tool.js';
import type { JsonSchema } from '../contract/json-schema.js';
import { acceptsNull, isAnyValue, recordValues } from './openai-strict.js';
import { toolInputSchema } from './to-json-schema.js';

type Direction = 'in' | 'out';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const reference = schema.$ref;
  if (typeof reference !== 'string' || !reference.startsWith('#/$defs/')) return schema;
  const defs = (root.$defs ?? {}) as Record<string, JsonSchema>;
  return defs[reference.slice('#/$defs/'.length)] ?? schema;
}

/** Whether an object was written for this object variant: its keys declared, its constants equal. */
function fitsObject(variant: JsonSchema, value: Record<string, unknown>): boolean {
  const properties = variant.properties ?? {};
  if (variant.type !== 'object' || Object.keys(value).some((name) => !(name in properties))) return false;
  return Object.entries(properties).every(([name, property]) => {
    // Null is how the strict form leaves an optional property out.
    if (!(name in value) || value[name] === null) return true;
    if (property.const !== undefined) return value[name] === property.const;
    return property.enum === undefined || property.enum.includes(value[name]);
  });
}

/** The variant of a union a value was written for: objects to their object, lists to lists. */
function variantFor(variants: JsonSchema[], value: unknown, root: JsonSchema): JsonSchema | undefined {
  return variants
    .map((variant) => resolve(variant, root))
    .find((variant) =>
      isPlainObject(value)
        ? fitsObject(variant, value) || recordValues(variant) !== undefined
        : Array.isArray(value)
          ? variant.type === 'array' || recordValues(variant) !== undefined
          : isAnyValue(variant),
    );
}

function convertRecord(values: JsonSchema, value: unknown, root: JsonSchema, direction: Direction): unknown {
  if (direction === 'out' && isPlainObject(value))
    return Object.entries(value).map(([key, inner]) => ({ key, value: convert(values, inner, root, 'out') }));
  if (direction === 'in' && Array.isArray(value)) {
    const entries = value
      .filter(isPlainObject)
      .map((entry) => [entry.key, convert(values, entry.value, root, 'in')]);
    return Object.fromEntries(entries);
  }
  return value;
}

function convertObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  root: JsonSchema,
  direction: Direction,
) {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const optional = !required.has(name) && !acceptsNull(property);
    if (direction === 'out' && optional && !(name in value)) out[name] = null;
    else if (direction === 'in' && optional && value[name] === null) continue;
    else if (name in value) out[name] = convert(property, value[name], root, direction);
  }
  // Keys the schema does not declare stay, so that validation names them (BAD_INPUT).
  for (const [name, inner] of Object.entries(value)) if (!(name in properties)) out[name] = inner;
  return out;
}

function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function convert(raw: JsonSchema, value: unknown, root: JsonSchema, direction: Direction): unknown {
  const schema = resolve(raw, root);
  if (isAnyValue(schema)) return direction === 'in' ? parseJsonText(value) : JSON.stringify(value);
  const values = recordValues(schema);
  if (values) return convertRecord(values, value, root, direction);
  if (isPlainObject(value) && schema.properties) return convertObject(schema, value, root, direction);
  if (Array.isArray(value) && schema.items)
    return value.map((item) => convert(schema.items as JsonSchema, item, root, direction));
  const variants = schema.anyOf ?? schema.oneOf;
  const variant = variants && value !== null ? variantFor(variants, value, root) : undefined;
  return variant ? convert(variant, value, root, direction) : value;
}

/**
 * The arguments of a call that came back from a model given the strict export: null for a
 * property the contract lets the caller leave out means "left out", key and value entries
 * become the record they stand for, JSON text becomes its value. Pass the result to `invoke`.
 */
export function fromOpenAiArguments(tool: AnyTool, args: unknown): unknown {
  if (!isPlainObject(args)) return args;
  const schema = toolInputSchema(tool);
  return convert(schema, args, schema, 'in');
}

/** The other way: arguments as the contract takes them, written as the strict export asks. */
export function toOpenAiArguments(tool: AnyTool, args: unknown): unknown {
  if (!isPlainObject(args)) return args;
  const schema = toolInputSchema(tool);
  return convert(schema, args, schema, 'out');
}
