import type { AnyTool } from '../../../src/contract/define-tool.js';
import { importOpenApi } from '../../../src/rungs/api/import.js';
import { toolsFromApiFile } from '../../../src/rungs/api/loader.js';
import { asOpenApi, type OpenApiDocument } from '../../../src/rungs/api/openapi.js';
import type { ApiToolFile } from '../../../src/rungs/api/tool-file.js';

const Widget = {
  type: 'object',
  required: ['id', 'name', 'status'],
  properties: {
    id: { type: 'string', pattern: '^W-\\d{3}$' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['new', 'shipped'] },
    secret_notes: { type: 'string' },
  },
};

export type Scheme =
  | { type: 'http'; scheme: 'bearer' | 'basic' }
  | { type: 'apiKey'; in: 'header' | 'cookie'; name: string };

/** A small API described in OpenAPI 3.0: a read, a paginated list, a create that honours Idempotency-Key, a ship without one. */
export function widgetSpec(scheme?: Scheme): OpenApiDocument {
  return asOpenApi(
    {
      openapi: '3.0.3',
      info: { title: 'Widgets', version: '1.0.0' },
      ...(scheme ? { security: [{ main: [] }] } : {}),
      paths: {
        '/widgets': {
          get: {
            operationId: 'listWidgets',
            summary: 'List widgets',
            parameters: [
              { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
              { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 2 } },
            ],
            responses: {
              '200': {
                description: 'A page of widgets',
                content: {
                  'application/json': {
                    schema: { type: 'object', properties: { items: { type: 'array', items: Widget } } },
                  },
                },
              },
            },
          },
          post: {
            operationId: 'createWidget',
            summary: 'Create a widget',
            parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }],
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['name'],
                    properties: { name: { type: 'string', minLength: 1, maxLength: 40 } },
                  },
                },
              },
            },
            responses: {
              '201': { description: 'Created', content: { 'application/json': { schema: Widget } } },
              '409': { description: 'A widget with this name exists' },
            },
          },
        },
        '/widgets/{id}': {
          get: {
            operationId: 'getWidget',
            summary: 'Read one widget',
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^W-\\d{3}$' } },
            ],
            responses: {
              '200': { description: 'The widget', content: { 'application/json': { schema: Widget } } },
              '404': { description: 'No widget has this id' },
            },
          },
        },
        '/widgets/{id}/ship': {
          post: {
            operationId: 'shipWidget',
            summary: 'Ship a widget to its customer',
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^W-\\d{3}$' } },
            ],
            responses: {
              '200': { description: 'Shipped', content: { 'application/json': { schema: Widget } } },
            },
          },
        },
      },
      ...(scheme ? { components: { securitySchemes: { main: scheme } } } : {}),
    },
    'widgets',
  );
}

/** The imported tool file with writes gated at `log`, so tests reach the server without an approval step. */
export function widgetFile(scheme?: Scheme): ApiToolFile {
  const { file } = importOpenApi(widgetSpec(scheme));
  for (const tool of file.tools) {
    if (tool.effect.class !== 'read') tool.effect.gate = 'log';
    tool.deadline_ms = 4_000;
  }
  return file;
}

export function widgetTools(baseUrl: string, scheme?: Scheme, edit?: (file: ApiToolFile) => void): AnyTool[] {
  const file = widgetFile(scheme);
  edit?.(file);
  return toolsFromApiFile(file, { baseUrl });
}

export const widget = (id = 'W-001') => ({ id, name: 'Sprocket', status: 'new', secret_notes: 'internal' });
