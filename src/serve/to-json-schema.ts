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

/**
 * The schema of what a call of this tool returns: the envelope, whose `fields` follow the
 * tool's output schema. A held call returns the pending envelope and a failure the error
 * envelope, so all three are allowed. A truncated result carries a cut of the fields (arrays
 * halved, long strings shortened), which need not satisfy the output schema's bounds.
 */
export function toolEnvelopeSchema(tool: AnyTool): JsonSchema & { type: 'object' } {
  const { success, pending, error } = envelopeSchemasOnce();
  const { $defs, ...fields } = toolFieldsSchema(tool);
  const complete = clone(success);
  complete.properties = { ...complete.properties, fields };
  const truncated = clone(success);
  truncated.properties = { ...truncated.properties, truncated: { type: 'boolean', const: true } };
  truncated.required = [...(truncated.required ?? []), 'truncated'];
  return {
    type: 'object',
    anyOf: [complete, truncated, clone(pending), clone(error)],
    ...($defs ? { $defs } : {}),
  };
}

/** Every property name the input schema declares, at the top level. */
export function inputPropertyNames(tool: AnyTool): string[] {
  return Object.keys(toolInputSchema(tool).properties);
}
