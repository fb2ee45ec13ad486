import { readFileSync } from 'node:fs';
import { parseYaml } from '../../config/yaml.js';
import type { JsonSchema } from '../../contract/json-schema.js';

/** The part of an OpenAPI 3 document the API rung reads. Everything else is ignored. */
export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface OpenApiResponse {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: JsonSchema }>;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, OpenApiResponse>;
  security?: Array<Record<string, string[]>>;
  deprecated?: boolean;
  [extension: `x-${string}`]: unknown;
}

export interface OpenApiSecurityScheme {
  type: 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  scheme?: string;
  in?: 'header' | 'query' | 'cookie';
  name?: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, unknown>>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    securitySchemes?: Record<string, OpenApiSecurityScheme>;
    parameters?: Record<string, OpenApiParameter>;
    responses?: Record<string, OpenApiResponse>;
    requestBodies?: Record<string, unknown>;
  };
  security?: Array<Record<string, string[]>>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OperationEntry {
  operationId: string;
  method: HttpMethod;
  path: string;
  operation: OpenApiOperation;
}

/** Reads an OpenAPI 3 description from JSON or YAML and checks that it is one. */
export function readSpec(file: string): OpenApiDocument {
  const text = readFileSync(file, 'utf8');
  const raw: unknown = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  return asOpenApi(raw, file);
}

export function asOpenApi(raw: unknown, source: string): OpenApiDocument {
  const document = raw as Partial<OpenApiDocument> | null;
  if (!document || typeof document !== 'object' || typeof document.openapi !== 'string') {
    throw new Error(`${source}: not an OpenAPI description (no 'openapi' version field).`);
  }
  if (!document.openapi.startsWith('3.')) {
    throw new Error(
      `${source}: OpenAPI ${document.openapi} is not supported; convert it to OpenAPI 3 first.`,
    );
  }
  if (!document.paths || typeof document.paths !== 'object') throw new Error(`${source}: no 'paths'.`);
  return document as OpenApiDocument;
}

const MAX_REF_DEPTH = 12;

/**
 * Replaces local `$ref`s (`#/components/...`) with what they point at. A reference cycle
 * becomes an open schema after a few levels instead of recursing forever.
 */
export function deref<T>(document: OpenApiDocument, value: T, depth = 0): T {
  if (Array.isArray(value)) return value.map((item) => deref(document, item, depth)) as T;
  if (!value || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$ref === 'string') {
    if (depth >= MAX_REF_DEPTH) return {} as T;
    const { $ref, ...siblings } = record;
    return deref(document, { ...(resolvePointer(document, $ref) as object), ...siblings } as T, depth + 1);
  }
  return Object.fromEntries(
    Object.entries(record).map(([key, item]) => [key, deref(document, item, depth)]),
  ) as T;
}

function resolvePointer(document: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Only local references are supported, not '${ref}'.`);
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    if (node === undefined) throw new Error(`Reference '${ref}' points at nothing.`);
  }
  return node;
}

/** Every operation of the document, with path-level parameters merged in and references resolved. */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, rawItem] of Object.entries(document.paths)) {
    const item = deref(document, rawItem) as Record<string, unknown>;
    const shared = (item.parameters as OpenApiParameter[] | undefined) ?? [];
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (!operation) continue;
      const own = operation.parameters ?? [];
      const merged = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
      entries.push({
        operationId:
          operation.operationId ??
          `${method}${path.replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string) => (c ?? '').toUpperCase())}`,
        method,
        path,
        operation: { ...operation, parameters: merged },
      });
    }
  }
  return entries;
}

export function findOperation(document: OpenApiDocument, operationId: string): OperationEntry | undefined {
  return listOperations(document).find((entry) => entry.operationId === operationId);
}
