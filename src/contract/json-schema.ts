import { z } from 'zod';
import type { AnyTool } from './define-tool.js';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  description?: string;
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  [key: string]: unknown;
};

const cache = new WeakMap<z.ZodType, JsonSchema>();

/** JSON Schema of a Zod schema as a caller must write it (defaults optional), computed once. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const cached = io === 'input' ? cache.get(schema) : undefined;
  if (cached) return cached;
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  if (io === 'input') cache.set(schema, json);
  return json;
}

export function inputSchemaOf(tool: AnyTool): JsonSchema {
  return jsonSchemaOf(tool.input, 'input');
}

export function outputSchemaOf(tool: AnyTool): JsonSchema {
  return jsonSchemaOf(tool.output, 'output');
}

/** A short reading of one property's type and bounds: `string · 1 to 2000 characters · pattern ^T-\d{6}$`. */
export function describeProperty(schema: JsonSchema): string {
  const parts: string[] = [];
  if (schema.enum) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  if (schema.const !== undefined) return `exactly ${JSON.stringify(schema.const)}`;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(describeProperty).join(' | ');
  parts.push(Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any'));
  if (schema.minLength !== undefined || schema.maxLength !== undefined) {
    parts.push(`${schema.minLength ?? 0} to ${schema.maxLength ?? '∞'} characters`);
  }
  if (schema.minimum !== undefined || schema.maximum !== undefined) {
    parts.push(`${schema.minimum ?? '-∞'} to ${schema.maximum ?? '∞'}`);
  }
  if (schema.minItems !== undefined || schema.maxItems !== undefined) {
    parts.push(`${schema.minItems ?? 0} to ${schema.maxItems ?? '∞'} items`);
  }
  if (schema.pattern) parts.push(`pattern ${schema.pattern}`);
  if (schema.format) parts.push(schema.format);
  if (schema.type === 'array' && schema.items) parts.push(`of ${describeProperty(schema.items)}`);
  return parts.join(' · ');
}
