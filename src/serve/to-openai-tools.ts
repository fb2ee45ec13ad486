import type { AnyTool } from '../contract/define-tool.js';
import type { JsonSchema } from '../contract/json-schema.js';
import { type ObjectJsonSchema, toolInputSchema } from './to-json-schema.js';

/** A tool as OpenAI's Chat Completions `tools` array takes it. */
export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: ObjectJsonSchema; strict: boolean };
}

/** Keywords OpenAI's strict mode accepts as they are. */
const STRICT_KEYWORDS = new Set([
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

/**
 * Bounds strict mode rejects but Lift enforces anyway when the call arrives (BAD_INPUT):
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
  return notes;
}

/** Why a schema cannot be strict, or the strict form of it. */
export type StrictResult = { strict: true; schema: JsonSchema } | { strict: false; reason: string };

function strictForm(schema: JsonSchema, path: string): StrictResult {
  const notes = advisory(schema);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'minLength' || key === 'maxLength' || key === 'title') continue;
    if (key === 'format' && !STRICT_FORMATS.has(String(value))) continue;
    if (!STRICT_KEYWORDS.has(key))
      return { strict: false, reason: `${path}: '${key}' is not allowed in strict mode` };
    out[key] = value;
  }
  if (notes.length > 0)
    out.description = [schema.description, `(${notes.join(', ')})`].filter(Boolean).join(' ');

  if (schema.type === 'object' || schema.properties) {
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
      return { strict: false, reason: `${path}: an object with free keys` };
    }
    const properties: Record<string, JsonSchema> = {};
    const required = new Set(schema.required ?? []);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (!required.has(name)) return { strict: false, reason: `${path}.${name} is optional` };
      const inner = strictForm(property, `${path}.${name}`);
      if (!inner.strict) return inner;
      properties[name] = inner.schema;
    }
    out.properties = properties;
    out.additionalProperties = false;
  }
  if (schema.items !== undefined) {
    const inner = strictForm(schema.items, `${path}.items`);
    if (!inner.strict) return inner;
    out.items = inner.schema;
  }
  if (schema.anyOf !== undefined) {
    const variants: JsonSchema[] = [];
    for (const [index, variant] of schema.anyOf.entries()) {
      const inner = strictForm(variant, `${path}.anyOf[${index}]`);
      if (!inner.strict) return inner;
      variants.push(inner.schema);
    }
    out.anyOf = variants;
  }
  if (schema.$defs !== undefined) {
    const defs: Record<string, JsonSchema> = {};
    for (const [name, definition] of Object.entries(schema.$defs as Record<string, JsonSchema>)) {
      const inner = strictForm(definition, `${path}.$defs.${name}`);
      if (!inner.strict) return inner;
      defs[name] = inner.schema;
    }
    out.$defs = defs;
  }
  return { strict: true, schema: out };
}

/**
 * The strict form of a tool's input, when OpenAI's strict mode can express it: every
 * property required, no free-keyed objects, only the keywords strict mode accepts. Length
 * bounds and unusual formats move into descriptions (Lift still enforces them).
 */
export function openAiStrictSchema(tool: AnyTool): StrictResult {
  return strictForm(toolInputSchema(tool), tool.name);
}

export function toOpenAiTool(tool: AnyTool): OpenAiTool {
  const strict = openAiStrictSchema(tool);
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: strict.strict ? (strict.schema as ObjectJsonSchema) : toolInputSchema(tool),
      strict: strict.strict,
    },
  };
}

export function toOpenAiTools(tools: readonly AnyTool[]): OpenAiTool[] {
  return tools.map(toOpenAiTool);
}
