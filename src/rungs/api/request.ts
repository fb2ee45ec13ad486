import type { z } from 'zod';
import { LiftError } from '../../contract/errors.js';
import type { ApiRequest, ApiResponse } from './http.js';
import type { ApiToolSpec } from './tool-file.js';

/** Turning a tool call into an HTTP request, and a response back into the contract's fields. */

export function project(record: unknown, fields: string[]): Record<string, unknown> {
  const source = (record ?? {}) as Record<string, unknown>;
  return Object.fromEntries(fields.filter((name) => name in source).map((name) => [name, source[name]]));
}

export function buildRequest(
  baseUrl: string,
  spec: ApiToolSpec,
  input: Record<string, unknown>,
  requestId: string | undefined,
): ApiRequest {
  let path = spec.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  let body: Record<string, unknown> | undefined;
  let wholeBody: unknown;
  for (const [name, field] of Object.entries(spec.inputs)) {
    const value = input[name];
    if (value === undefined) continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (field.in === 'path') path = path.replace(`{${field.wire}}`, encodeURIComponent(text));
    else if (field.in === 'query') {
      if (Array.isArray(value)) for (const item of value) query.append(field.wire, String(item));
      else query.set(field.wire, typeof value === 'string' ? value : String(value));
    } else if (field.in === 'header') headers[field.wire] = text;
    else if (spec.body_argument === name) wholeBody = value;
    else {
      body ??= {};
      body[field.wire] = value;
    }
  }
  if (spec.request_id?.header && requestId) headers[spec.request_id.header] = requestId;
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [key, value] of query) url.searchParams.append(key, value);
  const payload = wholeBody ?? body;
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return {
    method: spec.method,
    url,
    template: spec.path,
    headers,
    ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
  };
}

/** Checks a 2xx body against the declared response schema; a mismatch means the API is not the one described. */
export function checkSurface(
  spec: ApiToolSpec,
  response: ApiResponse,
  validator: z.ZodType | undefined,
  write: boolean,
): void {
  if (!validator) return;
  const parsed = validator.safeParse(response.body);
  if (parsed.success) return;
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  throw new LiftError(
    'SURFACE_CHANGED',
    `${spec.method.toUpperCase()} ${spec.path} answered with a body that no longer matches its description: ${issues.join('; ')}.`,
    {
      hint: 'The API changed (a field renamed, removed or retyped). Re-import its description (lift api import) and review the tool file; do not retry blindly.',
      outcome: write ? 'unknown' : 'not_started',
      details: { issues },
    },
  );
}

export function nextPage(
  spec: ApiToolSpec,
  input: Record<string, unknown>,
  body: unknown,
  got: number,
): string | number | undefined {
  const pagination = spec.pagination;
  if (!pagination) return undefined;
  if (pagination.style === 'cursor') {
    const cursor = (body as Record<string, unknown> | undefined)?.[pagination.next_path ?? ''];
    return typeof cursor === 'string' && cursor.length > 0 ? cursor : undefined;
  }
  const size = pagination.page_size ?? Number(input[pagination.size_param ?? ''] ?? 0);
  if (got === 0 || (size > 0 && got < size)) return undefined;
  const current = Number(input[pagination.param] ?? (pagination.style === 'page' ? 1 : 0));
  return pagination.style === 'page' ? current + 1 : current + got;
}

/** The paging parameters must be sendable even when the description left them out of the inputs. */
export function withPaging(spec: ApiToolSpec): ApiToolSpec['inputs'] {
  const inputs = { ...spec.inputs };
  const pagination = spec.pagination;
  if (!pagination) return inputs;
  for (const wire of [pagination.param, pagination.size_param]) {
    if (wire && !Object.values(inputs).some((input) => input.wire === wire)) {
      inputs[wire] = { in: 'query', wire, required: false, schema: {} };
    }
  }
  return inputs;
}
