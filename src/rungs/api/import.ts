import type { JsonSchema } from '../../contract/json-schema.js';
import { effectOf, errorHints, exampleFor, paginationOf, settleFor } from './import-details.js';
import { describeOutput } from './import-output.js';
import { argumentNameFor, snakeCase, toolNameFor } from './naming.js';
import {
  deref,
  listOperations,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiSecurityScheme,
  type OperationEntry,
} from './openapi.js';
import { withBounds } from './schema-to-zod.js';
import type { ApiAuth, ApiInput, ApiToolFile, ApiToolSpec } from './tool-file.js';

export interface ImportOptions {
  /** operationIds to import; all operations when empty. An unknown id is an error. */
  only?: string[];
  /** Where the spec lives, relative to the tool file (recorded for the ladder). */
  specPath?: string;
  baseUrl?: string;
}

export interface ImportReport {
  file: ApiToolFile;
  /** Operations left out and why (unsupported security, non-JSON body, ...). */
  skipped: Array<{ operationId: string; reason: string }>;
}

/** Turns the chosen operations of an OpenAPI 3 description into a reviewable API tool file. */
export function importOpenApi(document: OpenApiDocument, options: ImportOptions = {}): ImportReport {
  const all = listOperations(document);
  const only = options.only ?? [];
  const unknown = only.filter((id) => !all.some((entry) => entry.operationId === id));
  if (unknown.length > 0) {
    throw new Error(
      `No operation has the id ${unknown.map((id) => `'${id}'`).join(', ')}. Known: ${all.map((entry) => entry.operationId).join(', ')}.`,
    );
  }
  const chosen = only.length > 0 ? all.filter((entry) => only.includes(entry.operationId)) : all;
  const { auth, schemeName } = authOf(document, chosen);
  const skipped: ImportReport['skipped'] = [];
  const tools: ApiToolSpec[] = [];
  const names = new Set<string>();
  for (const entry of chosen) {
    try {
      const scheme = securityOf(document, entry.operation);
      if (scheme && scheme !== schemeName) {
        throw new Error(
          `${entry.operationId}: uses security scheme '${scheme}', not '${schemeName}'; import it separately.`,
        );
      }
      const tool = toolFor(document, entry, all, auth);
      let name = tool.name;
      for (let n = 2; names.has(name); n++) name = `${tool.name}_${n}`;
      names.add(name);
      tools.push({ ...tool, name });
    } catch (error) {
      skipped.push({
        operationId: entry.operationId,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  if (tools.length === 0)
    throw new Error(`No operation could be imported: ${skipped.map((s) => s.reason).join('; ')}`);
  const byOperation = new Map(tools.map((tool) => [tool.operation_id, tool]));
  for (const tool of tools) {
    const read = tool.settle ? byOperation.get(tool.settle) : undefined;
    if (read)
      tool.settle = read.path.endsWith('}')
        ? `${read.name} on the same record`
        : `${read.name}, looking for the record`;
    else delete tool.settle;
  }
  return {
    file: {
      version: 1,
      api: {
        title: document.info.title,
        version: document.info.version,
        ...(options.specPath ? { spec: options.specPath } : {}),
        base_url: options.baseUrl ?? document.servers?.[0]?.url ?? 'http://localhost',
        auth,
        group: snakeCase(document.info.title).slice(0, 40) || 'api',
      },
      tools,
    },
    skipped,
  };
}

function securityOf(document: OpenApiDocument, operation: OpenApiOperation): string | undefined {
  const requirements = operation.security ?? document.security ?? [];
  return Object.keys(requirements[0] ?? {})[0];
}

/** The one credential a tool file uses: the first supported scheme among the chosen operations. */
function authOf(document: OpenApiDocument, chosen: OperationEntry[]): { auth: ApiAuth; schemeName?: string } {
  const schemes = document.components?.securitySchemes ?? {};
  const names = [
    ...new Set(
      chosen.map((entry) => securityOf(document, entry.operation)).filter((name) => name !== undefined),
    ),
  ];
  const schemeName = names.find((name) => schemes[name] && supported(schemes[name])) ?? names[0];
  if (!schemeName) return { auth: { kind: 'none' } };
  return { auth: authFor(document, schemeName), schemeName };
}

function supported(scheme: OpenApiSecurityScheme): boolean {
  return (
    (scheme.type === 'http' && ['bearer', 'basic'].includes(scheme.scheme?.toLowerCase() ?? '')) ||
    (scheme.type === 'apiKey' && (scheme.in === 'header' || scheme.in === 'cookie'))
  );
}

function authFor(document: OpenApiDocument, schemeName: string): ApiAuth {
  const scheme = document.components?.securitySchemes?.[schemeName];
  if (!scheme)
    throw new Error(`Security scheme '${schemeName}' is not defined in components.securitySchemes.`);
  const secret = snakeCase(`${document.info.title} ${schemeName}`).slice(0, 60);
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') return { kind: 'bearer', secret };
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') return { kind: 'basic', secret };
  if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name)
    return { kind: 'header', name: scheme.name, secret };
  if (scheme.type === 'apiKey' && scheme.in === 'cookie' && scheme.name)
    return { kind: 'cookie', name: scheme.name, secret };
  throw new Error(
    `Security scheme '${schemeName}' (${scheme.type}${scheme.in ? ` in ${scheme.in}` : ''}) is not supported: use bearer, basic, an API key header or a session cookie.`,
  );
}

function isIdempotencyHeader(name: string): boolean {
  return name.toLowerCase() === 'idempotency-key';
}

function toolFor(
  document: OpenApiDocument,
  entry: OperationEntry,
  all: OperationEntry[],
  auth: ApiAuth,
): ApiToolSpec {
  const { operation, method, path } = entry;
  const effectClass = effectOf(entry);
  const inputs: Record<string, ApiInput> = {};
  let idempotencyHeader = operation['x-idempotency-key'] === true ? 'Idempotency-Key' : undefined;
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'cookie') continue;
    if (parameter.in === 'header' && isIdempotencyHeader(parameter.name)) {
      idempotencyHeader = parameter.name;
      continue;
    }
    if (parameter.in === 'header' && parameter.name.toLowerCase() === 'authorization') continue;
    if (
      auth.kind === 'header' &&
      parameter.in === 'header' &&
      parameter.name.toLowerCase() === auth.name.toLowerCase()
    )
      continue;
    const schema = withBounds({
      ...(parameter.schema ?? { type: 'string' }),
      ...(parameter.description && !parameter.schema?.description
        ? { description: parameter.description }
        : {}),
    });
    inputs[argumentNameFor(parameter.name)] = {
      in: parameter.in,
      wire: parameter.name,
      required: parameter.in === 'path' || parameter.required === true,
      schema,
    };
  }
  let bodyArgument: string | undefined;
  const body = operation.requestBody;
  if (body) {
    const media = Object.keys(body.content ?? {});
    const json = media.find((type) => type === 'application/json' || type.endsWith('+json'));
    if (!json)
      throw new Error(`${entry.operationId}: request body is ${media.join(', ') || 'undeclared'}, not JSON.`);
    const schema = deref(document, body.content?.[json]?.schema ?? {}) as JsonSchema;
    const properties = schema.properties ?? {};
    const collides = Object.keys(properties).some((name) => argumentNameFor(name) in inputs);
    if (schema.type === 'object' || schema.properties) {
      if (collides)
        throw new Error(
          `${entry.operationId}: body fields collide with parameter names; rename them in the file.`,
        );
      const required = new Set(schema.required ?? []);
      for (const [name, property] of Object.entries(properties)) {
        if ((property as JsonSchema).readOnly === true) continue;
        inputs[argumentNameFor(name)] = {
          in: 'body',
          wire: name,
          required: body.required !== false && required.has(name),
          schema: withBounds(property),
        };
      }
    } else {
      bodyArgument = 'body';
      inputs.body = {
        in: 'body',
        wire: 'body',
        required: body.required === true,
        schema: withBounds(schema),
      };
    }
  }
  const output = describeOutput(document, entry);
  const pagination = effectClass === 'read' ? paginationOf(entry, inputs, output.schema) : undefined;
  const authenticated = auth.kind !== 'none' && securityOf(document, operation) !== undefined;
  const errors = errorHints(entry);
  const description = (operation.summary ?? operation.description ?? `${method.toUpperCase()} ${path}`)
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 1000);
  return {
    name:
      typeof operation['x-lift-name'] === 'string'
        ? operation['x-lift-name']
        : toolNameFor(entry.operationId, path),
    operation_id: entry.operationId,
    method,
    path,
    description,
    inputs,
    ...(bodyArgument ? { body_argument: bodyArgument } : {}),
    ...(effectClass === 'read' ? {} : { request_id: idempotencyHeader ? { header: idempotencyHeader } : {} }),
    authenticated,
    effect: {
      class: effectClass,
      ...(effectClass === 'read'
        ? {}
        : {
            repeat: idempotencyHeader
              ? `the same request_id is sent as ${idempotencyHeader}; the API returns the first result`
              : 'the same request_id returns the first result from Lift’s ledger (effect: existing)',
          }),
    },
    output,
    ...(pagination ? { pagination } : {}),
    errors,
    deadline_ms: effectClass === 'read' ? 10_000 : 20_000,
    read_retries: effectClass === 'read' ? 2 : 0,
    cap: { chars: 4_000, rows: 50 },
    ...(effectClass === 'read' ? {} : settleFor(entry, all)),
    example: exampleFor(inputs, effectClass !== 'read'),
  };
}
