import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { type AnyTool, defineTool, type ToolErrorSpec, type ToolResult } from '../../contract/define-tool.js';
import { ERROR_CODES, type ErrorCode, LiftError } from '../../contract/errors.js';
import type { JsonSchema } from '../../contract/json-schema.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { type SendPolicy, send } from './http.js';
import { buildRequest, checkSurface, nextPage, project, withPaging } from './request.js';
import { toZod } from './schema-to-zod.js';
import { type ApiToolFile, type ApiToolSpec, readApiToolFile } from './tool-file.js';

export interface LoadOptions {
  /** Overrides the file's base_url (a test server, a staging host). */
  baseUrl?: string;
}

/** Where a loaded API tool came from; the ladder reads it to test the rung. */
export interface ApiToolOrigin {
  file: string | undefined;
  spec: string | undefined;
  operationId: string;
  auth: ApiToolFile['api']['auth'];
  authenticated: boolean;
}

const origins = new WeakMap<AnyTool, ApiToolOrigin>();

export function apiOriginOf(tool: AnyTool): ApiToolOrigin | undefined {
  return origins.get(tool);
}

function inputSchemaFor(spec: ApiToolSpec): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, input] of Object.entries(spec.inputs)) {
    const schema = toZod(input.schema, { strict: true });
    shape[name] = input.required ? schema : schema.optional();
  }
  if (spec.request_id) shape.request_id = RequestIdSchema;
  if (spec.pagination) {
    shape.max_pages = z
      .number()
      .int()
      .min(1)
      .max(spec.pagination.max_pages)
      .optional()
      .describe(`Pages to fetch in this call (default 1, at most ${spec.pagination.max_pages}).`);
  }
  return z.strictObject(shape);
}

function pick(schema: JsonSchema, fields: string[]): JsonSchema {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((name) => [name, properties[name] ?? {}])),
    required: fields.filter((name) => required.has(name)),
  };
}

function itemsSchemaOf(spec: ApiToolSpec): JsonSchema {
  const schema = spec.output.schema;
  if (spec.output.items_path) return schema.properties?.[spec.output.items_path]?.items ?? {};
  return schema.items ?? {};
}

function outputSchemaFor(spec: ApiToolSpec): z.ZodType {
  const { kind, fields } = spec.output;
  if (kind === 'empty') return z.strictObject({ status: z.number().int() });
  if (kind === 'object') return toZod(pick(spec.output.schema, fields), { strict: false });
  return z.strictObject({
    items: z.array(toZod(pick(itemsSchemaOf(spec), fields), { strict: false })),
    count: z.number().int(),
    next_page: z.union([z.string(), z.number()]).optional(),
  });
}

function errorsOf(spec: ApiToolSpec, write: boolean): Partial<Record<ErrorCode, ToolErrorSpec>> {
  const errors: Partial<Record<ErrorCode, ToolErrorSpec>> = {};
  for (const [code, hint] of Object.entries(spec.errors)) {
    if (code in ERROR_CODES) errors[code as ErrorCode] = { hint };
  }
  errors.RATE_LIMITED ??= { hint: ERROR_CODES.RATE_LIMITED.hint };
  errors.UPSTREAM_ERROR = write
    ? {
        retry: 'after_check',
        hint: 'The server failed; the write may have landed. Run the settle read before any retry.',
      }
    : { retry: 'yes', hint: 'The server failed on every attempt this call allowed. Try again later.' };
  errors.NOT_FOUND ??= { hint: ERROR_CODES.NOT_FOUND.hint };
  if (!write) {
    errors.TIMEOUT = {
      retry: 'yes',
      hint: 'The API did not answer within the deadline. A read changes nothing: call again, or later.',
    };
  }
  if (write) errors.CONFLICT ??= { hint: ERROR_CODES.CONFLICT.hint };
  return errors;
}

/** Turns one entry of an API tool file into a Lift tool: the whole contract, derived from the data. */
export function toolFromSpec(file: ApiToolFile, spec: ApiToolSpec, options: LoadOptions = {}): AnyTool {
  const baseUrl = options.baseUrl ?? file.api.base_url;
  const write = spec.effect.class !== 'read';
  const auth = spec.authenticated ? file.api.auth : undefined;
  const validator = spec.output.kind === 'empty' ? undefined : toZod(spec.output.schema, { strict: false });
  const policy: SendPolicy = {
    write,
    retries: write ? 0 : spec.read_retries,
    auth,
    hints: spec.errors,
    settle: spec.settle,
  };
  const narrow = spec.pagination
    ? `Narrow with filters, or ask for the next page (${spec.pagination.param} = next_page).`
    : 'Narrow the call with its filters; the full result is in files.full.';

  type Result = ToolResult<Record<string, unknown>>;
  const run = async (input: Record<string, unknown>, ctx: ToolContext): Promise<Result> => {
    if (spec.output.kind === 'list') return runList(input, ctx);
    const response = await send(buildRequest(baseUrl, spec, input, ctx.requestId), policy, ctx);
    checkSurface(spec, response, validator, write);
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    const fields =
      spec.output.kind === 'empty' ? { status: response.status } : project(response.body, spec.output.fields);
    return {
      fields,
      summary: `${spec.method.toUpperCase()} ${spec.path} answered ${response.status}${replayed ? ' (replayed by the API)' : ''}.`,
      ...(write ? { effect: replayed ? ('existing' as const) : ('changed' as const) } : {}),
      verifiedBy: `the API response (HTTP ${response.status}) parsed against the declared schema`,
    };
  };

  const runList = async (input: Record<string, unknown>, ctx: ToolContext): Promise<Result> => {
    const pages = Math.min(Number(input.max_pages ?? 1), spec.pagination?.max_pages ?? 1);
    const items: Record<string, unknown>[] = [];
    let pageInput = { ...input };
    delete pageInput.max_pages;
    if (
      spec.pagination?.size_param &&
      spec.pagination.page_size &&
      pageInput[spec.pagination.size_param] === undefined
    ) {
      pageInput[spec.pagination.size_param] = spec.pagination.page_size;
    }
    let next: string | number | undefined;
    for (let page = 0; page < pages; page++) {
      const response = await send(
        buildRequest(baseUrl, { ...spec, inputs: withPaging(spec) }, pageInput, undefined),
        policy,
        ctx,
      );
      checkSurface(spec, response, validator, write);
      const body = response.body as Record<string, unknown> | unknown[];
      const list = (
        spec.output.items_path ? (body as Record<string, unknown>)[spec.output.items_path] : body
      ) as unknown;
      if (!Array.isArray(list)) {
        throw new LiftError(
          'SURFACE_CHANGED',
          `${spec.method.toUpperCase()} ${spec.path} no longer answers with a list.`,
          {
            hint: 'The API changed. Re-import its description (lift api import) and review the tool file.',
            outcome: 'not_started',
          },
        );
      }
      items.push(...list.map((item) => project(item, spec.output.fields)));
      next = nextPage(spec, pageInput, body, list.length);
      if (next === undefined) break;
      if (spec.pagination) pageInput = { ...pageInput, [spec.pagination.param]: next };
    }
    return {
      fields: { items, count: items.length, ...(next !== undefined ? { next_page: next } : {}) },
      summary: `${items.length} item(s) from ${spec.method.toUpperCase()} ${spec.path}${next !== undefined ? '; more pages remain' : ''}.`,
      ...(next !== undefined ? { truncated: true, narrow } : {}),
      verifiedBy: 'each page parsed against the declared schema',
    };
  };

  const tool = defineTool({
    name: spec.name,
    description: spec.description,
    group: file.api.group ?? 'api',
    rung: 'api',
    input: inputSchemaFor(spec),
    output: outputSchemaFor(spec),
    cap: { chars: spec.cap.chars, rows: spec.cap.rows, narrow },
    verifiedBy: `the ${spec.operation_id} response parsed against its declared OpenAPI schema`,
    errors: errorsOf(spec, write),
    effect: {
      class: spec.effect.class,
      ...(spec.effect.gate ? { gate: spec.effect.gate } : {}),
      ...(spec.effect.repeat ? { repeat: spec.effect.repeat } : {}),
    },
    timeout: {
      deadlineMs: spec.deadline_ms,
      budget: { attempts: write ? 1 : 1 + spec.read_retries },
      ...(spec.settle ? { settle: spec.settle } : {}),
    },
    ...(auth && auth.kind !== 'none'
      ? { session: { secret: auth.secret, onExpiry: 'AUTH_REQUIRED; a person stores a fresh credential' } }
      : {}),
    ...(write
      ? {
          preview: (input: unknown) =>
            `${spec.method.toUpperCase()} ${file.api.title} ${spec.path} ${JSON.stringify(input)}`,
        }
      : {}),
    ...(spec.example ? { example: spec.example } : {}),
    run: (input, ctx) => run(input as Record<string, unknown>, ctx),
  });
  return tool;
}

export function toolsFromApiFile(
  file: ApiToolFile,
  options: LoadOptions & { source?: string } = {},
): AnyTool[] {
  return file.tools.map((spec) => {
    const tool = toolFromSpec(file, spec, options);
    const source = options.source;
    origins.set(tool, {
      file: source,
      spec: file.api.spec && source ? resolve(dirname(source), file.api.spec) : file.api.spec,
      operationId: spec.operation_id,
      auth: file.api.auth,
      authenticated: spec.authenticated,
    });
    return tool;
  });
}

/** Reads an API tool file and returns its tools, ready for a Runtime. */
export function loadApiTools(path: string, options: LoadOptions = {}): AnyTool[] {
  const source = resolve(path);
  return toolsFromApiFile(readApiToolFile(source), { ...options, source });
}
