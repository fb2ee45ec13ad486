import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { EFFECT_CLASSES, GATES } from '../../contract/effects.js';
import type { JsonSchema } from '../../contract/json-schema.js';

/**
 * The API tool file: what `lift api import` writes and a person reviews and edits. It is
 * data, not code; `toolsFromApiFile` turns it into Lift tools at run time.
 */
const JsonSchemaValue = z.custom<JsonSchema>((value) => typeof value === 'object' && value !== null, {
  message: 'a JSON Schema object',
});

const SECRET_NAME = z.string().regex(/^[a-z][a-z0-9_]*$/, 'snake_case secret name');

export const ApiAuthSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('none') }),
  /** `Authorization: Bearer <secret>`. */
  z.strictObject({ kind: z.literal('bearer'), secret: SECRET_NAME }),
  /** `Authorization: Basic base64(<secret>)`; the secret holds `user:password`. */
  z.strictObject({ kind: z.literal('basic'), secret: SECRET_NAME }),
  /** An API key in a named request header. */
  z.strictObject({ kind: z.literal('header'), name: z.string().min(1).max(100), secret: SECRET_NAME }),
  /** A session cookie a person obtained by signing in. */
  z.strictObject({ kind: z.literal('cookie'), name: z.string().min(1).max(100), secret: SECRET_NAME }),
]);
export type ApiAuth = z.infer<typeof ApiAuthSchema>;

export const ApiInputSchema = z.strictObject({
  in: z.enum(['path', 'query', 'header', 'body']),
  /** The name on the wire, when it differs from the tool's argument name. */
  wire: z.string().min(1).max(200),
  required: z.boolean(),
  schema: JsonSchemaValue,
});
export type ApiInput = z.infer<typeof ApiInputSchema>;

export const PaginationSchema = z.strictObject({
  style: z.enum(['page', 'offset', 'cursor']),
  /** The query parameter that selects the page (page number, offset or cursor). */
  param: z.string().min(1),
  /** The query parameter that sets the page size, and the size asked for. */
  size_param: z.string().min(1).optional(),
  page_size: z.number().int().min(1).max(1000).optional(),
  /** Cursor style: the response property holding the next cursor. */
  next_path: z.string().min(1).optional(),
  /** The most pages one call may fetch; never unbounded. */
  max_pages: z.number().int().min(1).max(50),
});
export type Pagination = z.infer<typeof PaginationSchema>;

export const ApiToolSpecSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/, 'snake_case, at least two words'),
  operation_id: z.string().min(1),
  method: z.enum(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']),
  path: z.string().startsWith('/'),
  description: z.string().min(1).max(1000),
  inputs: z.record(z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/), ApiInputSchema),
  /** When set, the request body is this one argument as a whole (it is not an object of fields). */
  body_argument: z.string().optional(),
  /** Writes carry request_id; sent as this header when the API honours one, otherwise kept in Lift's ledger. */
  request_id: z.strictObject({ header: z.string().min(1).optional() }).optional(),
  authenticated: z.boolean(),
  effect: z.strictObject({
    class: z.enum(EFFECT_CLASSES),
    gate: z.enum(GATES).optional(),
    repeat: z.string().max(300).optional(),
  }),
  output: z.strictObject({
    kind: z.enum(['object', 'list', 'empty']),
    /** The fields the tool returns: of the object, or of each list item. Everything else is dropped. */
    fields: z.array(z.string().min(1)).max(40),
    /** A list inside an object response (`items`, `data`); absent when the response is the array. */
    items_path: z.string().min(1).optional(),
    /** The declared 2xx response schema; a response that does not match is SURFACE_CHANGED. */
    schema: JsonSchemaValue,
  }),
  pagination: PaginationSchema.optional(),
  errors: z.record(z.string(), z.string().max(500)).default({}),
  deadline_ms: z.number().int().min(100).max(600_000),
  /** Extra attempts for a read after a server error or a dropped connection (writes get none). */
  read_retries: z.number().int().min(0).max(5),
  cap: z.strictObject({
    chars: z.number().int().min(200).max(100_000),
    rows: z.number().int().min(1).max(1000),
  }),
  /** The read that settles a write whose outcome is unknown. */
  settle: z.string().max(300).optional(),
  example: z.record(z.string(), z.unknown()).optional(),
});
export type ApiToolSpec = z.infer<typeof ApiToolSpecSchema>;

export const ApiToolFileSchema = z.strictObject({
  version: z.literal(1),
  api: z.strictObject({
    title: z.string().min(1),
    version: z.string(),
    /** The OpenAPI description this file was imported from, relative to this file. */
    spec: z.string().optional(),
    base_url: z.string().min(1),
    auth: ApiAuthSchema,
    group: z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/)
      .optional(),
  }),
  tools: z.array(ApiToolSpecSchema).min(1),
});
export type ApiToolFile = z.infer<typeof ApiToolFileSchema>;

export function parseApiToolFile(raw: unknown, source: string): ApiToolFile {
  const parsed = ApiToolFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(`${source}: not a valid API tool file.\n${z.prettifyError(parsed.error)}`);
  const names = new Set<string>();
  for (const tool of parsed.data.tools) {
    if (names.has(tool.name)) throw new Error(`${source}: two tools are named '${tool.name}'.`);
    names.add(tool.name);
  }
  return parsed.data;
}

export function readApiToolFile(file: string): ApiToolFile {
  return parseApiToolFile(JSON.parse(readFileSync(file, 'utf8')), file);
}
