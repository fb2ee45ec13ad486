import type { AnyTool } from '../contract/define-tool.js';
import { ErrorEnvelopeSchema, PendingEnvelopeSchema, SuccessEnvelopeSchema } from '../contract/envelope.js';
import { type JsonSchema, jsonSchemaOf } from '../contract/json-schema.js';

/** A JSON Schema whose root is an object, as MCP, OpenAI and Anthropic all require of tool input. */
export type ObjectJsonSchema = JsonSchema & { type: 'object'; properties: Record<string, JsonSchema> };

function clone<T>(value: T): T {
  return structuredClone(value);
}

/**
 * The input schema as `invoke` enforces it: a top-level object is validated strictly, so
 * the schema says `additionalProperties: false` even where the Zod object is not strict.
 */
export function toolInputSchema(tool: AnyTool): ObjectJsonSchema {
  const schema = clone(jsonSchemaOf(tool.input, 'input'));
  if (schema.type !== 'object') {
    throw new Error(
      `Tool '${tool.name}' cannot be exported: its input must be an object schema (z.strictObject), not ${schema.type ?? 'a union'}.`,
    );
  }
  return { ...schema, type: 'object', properties: schema.properties ?? {}, additionalProperties: false };
}

/** The JSON Schema of the fields a successful call returns. */
export function toolFieldsSchema(tool: AnyTool): JsonSchema {
  return clone(jsonSchemaOf(tool.output, 'output'));
}

let envelopeSchemas: { success: JsonSchema; pending: JsonSchema; error: JsonSchema } | undefined;

function envelopeSchemasOnce(): { success: JsonSchema; pending: JsonSchema; error: JsonSchema } {
  envelopeSchemas ??= {
    success: jsonSchemaOf(SuccessEnvelopeSchema, 'output'),
    pending: jsonSchemaOf(PendingEnvelopeSchema, 'output'),
    error: jsonSchemaOf(ErrorEnvelopeSchema, 'output'),
  };
  return envelopeSchemas;
}

/** Where the three envelopes every tool shares are described once, in full (envelope-resource.ts). */
export const ENVELOPE_SCHEMA_URI = 'lift://schema/envelope';

/**
 * What a listing's output schema keeps of a fields schema: shapes (types, properties, required,
 * items, enums, unions) and descriptions. Bounds, patterns, formats and closed objects are what
 * Lift's own output validation checks before a result leaves; a client's validator needs only
 * the shape, and a truncated result (arrays halved, long strings shortened) keeps every shape
 * while it may break a bound. Dropping them took a third off the output schemas.
 */
const OUTPUT_BOUNDS = new Set([
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'pattern',
  'format',
  'additionalProperties',
]);

function shapeOnly(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(shapeOnly);
  if (!schema || typeof schema !== 'object') return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' || key === '$defs') {
      kept[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, inner]) => [name, shapeOnly(inner)]),
      );
    } else if (key === 'additionalProperties' && typeof value === 'object') {
      // A record's values keep their shape: only `false`, a closed object, is a bound.
      kept[key] = shapeOnly(value);
    } else if (!OUTPUT_BOUNDS.has(key)) kept[key] = shapeOnly(value);
  }
  return kept;
}

/**
 * The schema of what a call of this tool returns, as short as a validator can check it: what
 * every envelope shares (ok, summary, checks, error, pending, truncated, ...) is described
 * once, at ENVELOPE_SCHEMA_URI and in the server's instructions, instead of in each of 36
 * tools (it was about two thirds of tools/list, and its last per-tool restatement a tenth).
 * What is the tool's own is here: `fields` has the shape of its output schema, which a held
 * call or a failure leaves out and a truncated result keeps.
 */
export function toolEnvelopeSchema(tool: AnyTool): JsonSchema & { type: 'object' } {
  const { $defs, ...fields } = shapeOnly(toolFieldsSchema(tool)) as JsonSchema;
  return {
    type: 'object',
    description: `Lift's envelope (${ENVELOPE_SCHEMA_URI}).`,
    properties: { fields: { ...fields, description: "This tool's fields, when ok." } },
    ...($defs ? { $defs } : {}),
  };
}

/** The three envelopes in full, `fields` left open: what every tool's output schema points at. */
export function sharedEnvelopeSchema(): JsonSchema {
  const { success, pending, error } = envelopeSchemasOnce();
  return { anyOf: [clone(success), clone(pending), clone(error)] };
}

/** Every property name the input schema declares, at the top level. */
export function inputPropertyNames(tool: AnyTool): string[] {
  return Object.keys(toolInputSchema(tool).properties);
}
