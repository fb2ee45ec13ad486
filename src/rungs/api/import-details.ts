import type { EffectClass } from '../../contract/effects.js';
import { EFFECT_CLASSES } from '../../contract/effects.js';
import type { JsonSchema } from '../../contract/json-schema.js';
import type { HttpMethod, OperationEntry } from './openapi.js';
import type { ApiInput, Pagination } from './tool-file.js';

/** The parts of an imported tool that are read off one operation: effect, settle read, pages, hints, example. */

const DEFAULT_EFFECT: Record<HttpMethod, EffectClass> = {
  get: 'read',
  head: 'read',
  options: 'read',
  post: 'visible',
  put: 'reversible',
  patch: 'reversible',
  delete: 'irreversible',
};

const PAGE_PARAMS: Record<string, Pagination['style']> = {
  page: 'page',
  offset: 'offset',
  cursor: 'cursor',
  after: 'cursor',
  page_token: 'cursor',
  pageToken: 'cursor',
};
const SIZE_PARAMS = ['limit', 'per_page', 'page_size', 'pageSize', 'size'];
const NEXT_PATHS = ['next_cursor', 'nextCursor', 'next_page_token', 'nextPageToken', 'next'];

export function effectOf(entry: OperationEntry): EffectClass {
  const stated = entry.operation['x-lift-effect'];
  if (typeof stated === 'string' && (EFFECT_CLASSES as readonly string[]).includes(stated))
    return stated as EffectClass;
  return DEFAULT_EFFECT[entry.method];
}

/** The read (GET) of the same record, or its parent collection, that settles an unknown write. */
export function settleFor(entry: OperationEntry, all: OperationEntry[]): { settle?: string } {
  const candidates = [entry.path, entry.path.replace(/\/[^/]+$/, '')];
  for (const path of candidates) {
    const read = all.find((other) => other.method === 'get' && other.path === path);
    if (read) return { settle: read.operationId };
  }
  return {};
}

export function paginationOf(
  entry: OperationEntry,
  inputs: Record<string, ApiInput>,
  schema: JsonSchema,
): Pagination | undefined {
  const stated = entry.operation['x-lift-pagination'];
  if (stated && typeof stated === 'object')
    return { max_pages: 5, ...(stated as Omit<Pagination, 'max_pages'>) };
  const query = Object.values(inputs).filter((input) => input.in === 'query');
  const pageParam = query.find((input) => input.wire in PAGE_PARAMS);
  if (!pageParam) return undefined;
  const style = PAGE_PARAMS[pageParam.wire]!;
  const sizeParam = query.find((input) => SIZE_PARAMS.includes(input.wire));
  const nextPath = NEXT_PATHS.find((name) => schema.properties?.[name] !== undefined);
  if (style === 'cursor' && !nextPath) return undefined;
  return {
    style,
    param: pageParam.wire,
    ...(sizeParam
      ? { size_param: sizeParam.wire, page_size: Math.min(50, sizeParam.schema.maximum ?? 50) }
      : {}),
    ...(style === 'cursor' && nextPath ? { next_path: nextPath } : {}),
    max_pages: 5,
  };
}

const STATUS_CODES: Record<string, string> = {
  '400': 'BAD_INPUT',
  '401': 'AUTH_REQUIRED',
  '403': 'AUTH_REQUIRED',
  '404': 'NOT_FOUND',
  '409': 'CONFLICT',
  '422': 'BAD_INPUT',
  '429': 'RATE_LIMITED',
};

/** Hints from the responses the description documents, so a person can read and improve them. */
export function errorHints(entry: OperationEntry): Record<string, string> {
  const hints: Record<string, string> = {};
  for (const [status, response] of Object.entries(entry.operation.responses ?? {})) {
    const code = STATUS_CODES[status];
    const text = response?.description?.replace(/\s+/g, ' ').trim();
    if (code && text && !hints[code]) hints[code] = `${text} (HTTP ${status}).`.slice(0, 500);
  }
  return hints;
}

function exampleValue(schema: JsonSchema): unknown {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return Math.max(1, schema.minimum ?? 1);
  if (type === 'boolean') return true;
  if (type === 'array') return schema.items ? [exampleValue(schema.items)] : [];
  if (type === 'object') return {};
  return 'text';
}

export function exampleFor(inputs: Record<string, ApiInput>, write: boolean): Record<string, unknown> {
  const example: Record<string, unknown> = {};
  for (const [name, input] of Object.entries(inputs)) {
    if (input.required) example[name] = exampleValue(input.schema);
  }
  if (write) example.request_id = 'req-0001';
  return example;
}
