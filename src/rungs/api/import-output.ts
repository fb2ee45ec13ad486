import type { JsonSchema } from '../../contract/json-schema.js';
import { deref, type OpenApiDocument, type OperationEntry } from './openapi.js';
import type { ApiToolSpec } from './tool-file.js';

const MAX_DEFAULT_FIELDS = 12;
const LIST_PROPERTIES = ['items', 'data', 'results', 'records', 'entries'];

function jsonSchemaOfResponse(document: OpenApiDocument, entry: OperationEntry): JsonSchema | 'empty' {
  const responses = entry.operation.responses ?? {};
  const status = ['200', '201', '202', '203', '206', '2XX', '2xx'].find((code) => responses[code]);
  if (!status) return responses['204'] ? 'empty' : 'empty';
  const content = responses[status]?.content ?? {};
  const media = Object.keys(content).find((type) => type === 'application/json' || type.endsWith('+json'));
  if (!media) return 'empty';
  return flattenDeep(deref(document, content[media]?.schema ?? {}) as JsonSchema);
}

/** Merges an allOf of objects into one object schema, so its fields can be named. */
export function flattenAllOf(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.allOf)) return schema;
  const parts = (schema.allOf as JsonSchema[]).map(flattenAllOf);
  const { allOf: _parts, ...rest } = schema;
  return {
    ...rest,
    type: 'object',
    properties: Object.assign({}, ...parts.map((part) => part.properties ?? {}), schema.properties ?? {}),
    required: [...new Set(parts.flatMap((part) => part.required ?? []).concat(schema.required ?? []))],
  };
}

function flattenDeep(schema: JsonSchema): JsonSchema {
  const flat = flattenAllOf(schema);
  return {
    ...flat,
    ...(flat.items ? { items: flattenDeep(flat.items) } : {}),
    ...(flat.properties
      ? {
          properties: Object.fromEntries(
            Object.entries(flat.properties).map(([key, value]) => [key, flattenDeep(value)]),
          ),
        }
      : {}),
  };
}

/** The fields a tool returns by default: all of a small record, else the required ones and the first others. */
function defaultFields(schema: JsonSchema): string[] {
  const names = Object.keys(schema.properties ?? {});
  if (names.length <= MAX_DEFAULT_FIELDS) return names;
  const required = (schema.required ?? []).filter((name) => names.includes(name));
  const rest = names.filter((name) => !required.includes(name));
  return [...required, ...rest].slice(0, Math.max(MAX_DEFAULT_FIELDS, required.length));
}

/** Which part of the response the tool returns: an object's named fields, or a list's items' named fields. */
export function describeOutput(document: OpenApiDocument, entry: OperationEntry): ApiToolSpec['output'] {
  const schema = jsonSchemaOfResponse(document, entry);
  if (schema === 'empty') return { kind: 'empty', fields: [], schema: {} };
  const stated = entry.operation['x-lift-fields'];
  const chosen = (target: JsonSchema) =>
    Array.isArray(stated)
      ? stated.filter((name): name is string => typeof name === 'string')
      : defaultFields(target);
  if (schema.type === 'array') return { kind: 'list', fields: chosen(schema.items ?? {}), schema };
  const properties = schema.properties ?? {};
  const arrays = Object.entries(properties).filter(([, property]) => property.type === 'array');
  // A record that merely has an array field (an order's lines) is not a list; a wrapper around one is.
  const list =
    arrays.find(([name]) => LIST_PROPERTIES.includes(name)) ??
    (arrays.length === 1 && !('id' in properties) ? arrays[0] : undefined);
  const listItems = list?.[1].items;
  if (list && listItems?.properties)
    return { kind: 'list', fields: chosen(listItems), items_path: list[0], schema };
  return { kind: 'object', fields: chosen(schema), schema };
}
