import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputSchemaOf, type JsonSchema } from '../../../src/contract/json-schema.js';
import {
  type BackofficeServer,
  loadTickets,
  startBackoffice,
} from '../../../src/fixtures/backoffice/index.js';
import { importOpenApi } from '../../../src/rungs/api/import.js';
import { toolsFromApiFile } from '../../../src/rungs/api/loader.js';
import { readSpec } from '../../../src/rungs/api/openapi.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FIXTURE_SPEC = join(ROOT, 'src', 'fixtures', 'backoffice', 'openapi.json');
const LARGE_SPEC = join(ROOT, 'test', 'fixtures', 'openapi', 'petstore-large.yaml');

function unboundedStrings(schema: JsonSchema, path = ''): string[] {
  const found: string[] = [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  // An anchored pattern without open-ended repetition (^O-\d{5}$) bounds the length by itself.
  const boundedPattern =
    typeof schema.pattern === 'string' &&
    /^\^.*\$$/.test(schema.pattern) &&
    !/[*+]|\{\d*,\}/.test(schema.pattern);
  const bounded =
    schema.enum || schema.maxLength !== undefined || schema.const !== undefined || boundedPattern;
  if (types.includes('string') && !bounded) found.push(path);
  if (types.includes('array') && schema.maxItems === undefined) found.push(`${path}[]`);
  for (const [key, value] of Object.entries(schema.properties ?? {}))
    found.push(...unboundedStrings(value, `${path}.${key}`));
  if (schema.items) found.push(...unboundedStrings(schema.items, `${path}[]`));
  for (const variant of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    found.push(...unboundedStrings(variant, path));
  return found;
}

describe('import of the back office OpenAPI description', () => {
  let server: BackofficeServer;
  const home = tempDir();
  beforeAll(async () => {
    server = await startBackoffice();
  });
  afterAll(async () => {
    await server.close();
    home.remove();
  });

  it('turns getTicket into ticket_get: a read with a patterned id and the ticket fields', () => {
    const { file, skipped } = importOpenApi(readSpec(FIXTURE_SPEC));
    expect(skipped).toEqual([]);
    expect(file.tools.map((tool) => tool.name)).toEqual(['ticket_get']);
    const [spec] = file.tools;
    expect(spec?.effect.class).toBe('read');
    expect(spec?.inputs.id).toMatchObject({ in: 'path', required: true, schema: { pattern: '^T-\\d{6}$' } });
    expect(spec?.output.fields).toEqual([
      'id',
      'subject',
      'member_id',
      'status',
      'opened_at',
      'resolution_note',
      'closed_at',
    ]);
  });

  it('reads a ticket from the running fixture and returns the values of its data file', async () => {
    const { file } = importOpenApi(readSpec(FIXTURE_SPEC));
    const runtime = new Runtime({ home: home.path, tools: toolsFromApiFile(file, { baseUrl: server.url }) });
    try {
      const expected = loadTickets().find((ticket) => ticket.id === 'T-000103')!;
      const envelope = await runtime.invoke('ticket_get', { id: 'T-000103' });
      expect(envelope).toMatchObject({ ok: true, effect: 'none', fields: expected });
      const missing = await runtime.invoke('ticket_get', { id: 'T-999999' });
      expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', retry: 'no' } });
      const bad = await runtime.invoke('ticket_get', { id: '103' });
      expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_INPUT', outcome: 'not_started' } });
      expect(server.requests().filter((request) => request.path.startsWith('/api/tickets/'))).toHaveLength(2);
    } finally {
      await runtime.close();
    }
  });
});

describe('import of a larger public-style description', () => {
  const document = readSpec(LARGE_SPEC);

  it('makes one task-shaped tool per operation and says why it skipped the rest', () => {
    const { file, skipped } = importOpenApi(document);
    expect(file.tools).toHaveLength(48);
    expect(skipped.map((skip) => skip.operationId).sort()).toEqual([
      'exportReport',
      'loginUser',
      'uploadPetPhoto',
    ]);
    expect(skipped.find((skip) => skip.operationId === 'exportReport')?.reason).toMatch(
      /security scheme 'legacyQueryKey'/,
    );
    expect(new Set(file.tools.map((tool) => tool.name)).size).toBe(48);
    expect(file.api.auth).toEqual({ kind: 'bearer', secret: 'petstore_clinic_bearer_auth' });
    const tools = toolsFromApiFile(file);
    expect(tools).toHaveLength(48);
  });

  it('derives the side-effect class from the method unless the description states it', () => {
    const { file } = importOpenApi(document);
    const effect = (name: string) => file.tools.find((tool) => tool.name === name)?.effect.class;
    expect(effect('pet_get')).toBe('read');
    expect(effect('pets_list')).toBe('read');
    expect(effect('pet_create')).toBe('visible');
    expect(effect('pet_update')).toBe('reversible');
    expect(effect('pet_delete')).toBe('irreversible');
    expect(effect('owner_archive')).toBe('reversible');
    expect(effect('invoice_pay')).toBe('irreversible');
  });

  it('sends request_id as Idempotency-Key only where the API honours one', () => {
    const { file } = importOpenApi(document);
    const tool = (name: string) => file.tools.find((candidate) => candidate.name === name)!;
    expect(tool('pet_create').request_id).toEqual({ header: 'Idempotency-Key' });
    expect(tool('appointment_book').request_id).toEqual({ header: 'Idempotency-Key' });
    expect(tool('pet_update').request_id).toEqual({});
    expect(tool('pet_get').request_id).toBeUndefined();
    expect(tool('pet_create').inputs).not.toHaveProperty('Idempotency-Key');
    expect(tool('pet_update').settle).toBe('pet_get on the same record');
  });

  it('bounds every input and finds each pagination style', () => {
    const { file } = importOpenApi(document);
    const tools = toolsFromApiFile(file);
    for (const tool of tools) expect(unboundedStrings(inputSchemaOf(tool)), tool.name).toEqual([]);
    const pagination = (name: string) => file.tools.find((tool) => tool.name === name)?.pagination;
    expect(pagination('pets_list')).toMatchObject({ style: 'page', param: 'page', size_param: 'per_page' });
    expect(pagination('orders_list')).toMatchObject({
      style: 'offset',
      param: 'offset',
      size_param: 'limit',
    });
    expect(pagination('appointments_list')).toMatchObject({
      style: 'cursor',
      param: 'cursor',
      next_path: 'next_cursor',
    });
    const invoices = file.tools.find((tool) => tool.name === 'invoices_list')!;
    expect(invoices.output).toMatchObject({ kind: 'list', items_path: 'items' });
    expect(invoices.output.fields).toEqual(expect.arrayContaining(['id', 'amount', 'currency', 'status']));
  });

  it('imports only the operations asked for and refuses an unknown one', () => {
    const { file } = importOpenApi(document, { only: ['getPetById', 'createPet'] });
    expect(file.tools.map((tool) => tool.name).sort()).toEqual(['pet_create', 'pet_get']);
    expect(() => importOpenApi(document, { only: ['getUnicorn'] })).toThrow(/getUnicorn/);
  });
});
