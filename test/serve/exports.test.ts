import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyTool } from '../../src/contract/define-tool.js';
import type { JsonSchema } from '../../src/contract/json-schema.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { readEnvelopeResource } from '../../src/serve/envelope-resource.js';
import { toOpenAiArguments } from '../../src/serve/openai-arguments.js';
import { toAnthropicTools } from '../../src/serve/to-anthropic-tools.js';
import { ENVELOPE_SCHEMA_URI } from '../../src/serve/to-json-schema.js';
import { toMcpTools } from '../../src/serve/to-mcp-tools.js';
import { toOpenAiTools } from '../../src/serve/to-openai-tools.js';
import { noteList, notePublish, noteRead, noteTag, noteWait, tools } from './fixtures/tools.js';

const ajv = new AjvJsonSchemaValidator();
const home = mkdtempSync(join(tmpdir(), 'lift-serve-exports-'));
const runtime = new Runtime({ home, tools });
afterAll(async () => {
  await runtime.close();
  rmSync(home, { recursive: true, force: true });
});

function valid(schema: JsonSchema, value: unknown): boolean {
  return ajv.getValidator(schema as never)(value).valid;
}

/** Every object in a schema, with its path. */
function objects(schema: JsonSchema, path = '$'): Array<{ path: string; schema: JsonSchema }> {
  const found: Array<{ path: string; schema: JsonSchema }> = [];
  if (schema.type === 'object') found.push({ path, schema });
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    found.push(...objects(property, `${path}.${name}`));
  if (schema.items) found.push(...objects(schema.items, `${path}[]`));
  for (const [index, variant] of (schema.anyOf ?? []).entries())
    found.push(...objects(variant, `${path}|${index}`));
  return found;
}

describe('MCP tools/list export', () => {
  const listed = toMcpTools(tools);
  const byName = (name: string) => listed.find((tool) => tool.name === name)!;

  it('is a valid MCP tool for every contract', () => {
    for (const tool of listed) expect(ToolSchema.safeParse(tool).success, tool.name).toBe(true);
  });

  it('derives the annotations from the effect class, the gate and the repeat key', () => {
    expect(byName('note_read').annotations).toEqual({
      title: 'Read a note',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(byName('note_publish').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(byName('note_tag').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName('note_delete').annotations).toMatchObject({
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(byName('note_wait').annotations.title).toBe('Note wait');
    expect(byName('note_publish').title).toBe('Publish a note');
  });

  it('lists the input exactly as invoke validates it: bounds, patterns, no extra fields', () => {
    const input = byName('note_tag').inputSchema;
    expect(input.additionalProperties).toBe(false);
    expect(input.required).toEqual(['request_id', 'id', 'tag', 'weight']);
    expect(input.properties.tag).toMatchObject({ enum: ['todo', 'done'] });
    expect(input.properties.weight).toMatchObject({ type: 'integer', minimum: 1, maximum: 10 });
    expect(input.properties.id).toMatchObject({ pattern: '^N-\\d{3}$' });
    expect(valid(input, noteTag.example)).toBe(true);
    expect(valid(input, { ...noteTag.example, extra: 1 })).toBe(false);
    expect(valid(input, { ...noteTag.example, weight: 11 })).toBe(false);
  });

  it('declares an output schema that every envelope the tool returns satisfies', async () => {
    const cases: Array<[AnyTool, unknown]> = [
      [noteRead, { id: 'N-001' }],
      [noteRead, { id: 'nope' }],
      [notePublish, { request_id: 'req-9001', text: 'hello' }],
      [noteList, { count: 3 }],
      [noteList, { count: 400 }],
      [noteWait, { marker: 'out-1', ms: 5_000 }],
    ];
    const seen = new Set<string>();
    for (const [tool, input] of cases) {
      const envelope = await runtime.invoke(tool, input);
      seen.add(
        'pending' in envelope
          ? 'pending'
          : 'error' in envelope
            ? envelope.error.code
            : envelope.truncated
              ? 'truncated'
              : 'ok',
      );
      const schema = byName(tool.name).outputSchema;
      expect(valid(schema, envelope), `${tool.name} ${JSON.stringify(envelope)}`).toBe(true);
    }
    expect([...seen].sort()).toEqual(['BAD_INPUT', 'TIMEOUT', 'ok', 'pending', 'truncated']);
  });

  it('describes in each output schema only what is the tool’s own, and every envelope once, in a resource', () => {
    const schema = byName('note_read').outputSchema as JsonSchema & { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(['fields']);
    expect(JSON.stringify(schema)).not.toContain('"retry"');
    const envelope = readEnvelopeResource(ENVELOPE_SCHEMA_URI);
    const shared = JSON.parse(
      String((envelope?.contents[0] as { text?: string } | undefined)?.text),
    ) as JsonSchema;
    // The shared schema holds what each tool's leaves out: the error's retry and hint, the pending approval.
    expect(JSON.stringify(shared)).toContain('"retry"');
    expect(JSON.stringify(shared)).toContain('"approval_id"');
    // ok and truncated, which each tool's schema no longer restates, are described there.
    expect(JSON.stringify(shared)).toContain('"ok"');
    expect(JSON.stringify(shared)).toContain('"truncated"');
    expect(readEnvelopeResource('lift://approvals/x')).toBeUndefined();
  });

  it('rejects fields that do not follow the output schema', () => {
    const schema = byName('note_read').outputSchema;
    const envelope = {
      ok: true,
      tool: 'note_read',
      summary: 's',
      fields: { id: 1 },
      files: {},
      effect: 'none',
      checks: [],
      run_id: 'r',
      duration_ms: 1,
    };
    expect(valid(schema, envelope)).toBe(false);
    expect(valid(schema, { ...envelope, fields: { id: 'N-001', text: 't' } })).toBe(true);
  });
});

describe('Anthropic export', () => {
  it('gives every tool an input_schema whose root is an object', () => {
    for (const tool of toAnthropicTools(tools)) {
      expect(Object.keys(tool).sort()).toEqual(['description', 'input_schema', 'name']);
      expect(tool.input_schema.type).toBe('object');
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.input_schema).not.toHaveProperty('$schema');
    }
  });
});

describe('OpenAI export', () => {
  const exported = toOpenAiTools(tools);
  const byName = (name: string) => exported.find((tool) => tool.function.name === name)!;

  it('is strict for every tool: an optional property is required and nullable', () => {
    for (const tool of exported) expect(tool.function.strict, tool.function.name).toBe(true);
    const list = byName('note_list').function.parameters;
    expect(list.required).toEqual(['prefix', 'count']);
    expect(list.properties.prefix?.type).toEqual(['string', 'null']);
  });

  it('keeps strict schemas inside strict mode: all required, no extra keys, no length keywords', () => {
    for (const tool of exported.filter((candidate) => candidate.function.strict)) {
      for (const { path, schema } of objects(tool.function.parameters)) {
        expect(schema.additionalProperties, `${tool.function.name} ${path}`).toBe(false);
        expect([...(schema.required ?? [])].sort(), `${tool.function.name} ${path}`).toEqual(
          Object.keys(schema.properties ?? {}).sort(),
        );
      }
      expect(JSON.stringify(tool.function.parameters)).not.toMatch(
        /"(minLength|maxLength|default|\$schema)"/,
      );
    }
  });

  it('moves length bounds into the description, where the model still reads them', () => {
    const text = byName('note_publish').function.parameters.properties.text;
    expect(text?.description).toContain('1 to 200 characters');
  });

  it('accepts the contract example under the exported schema of every format', () => {
    const mcp = toMcpTools(tools);
    const anthropic = toAnthropicTools(tools);
    for (const tool of tools) {
      const schemas = [
        anthropic.find((candidate) => candidate.name === tool.name)!.input_schema,
        mcp.find((candidate) => candidate.name === tool.name)!.inputSchema,
      ];
      for (const schema of schemas) expect(valid(schema, tool.example), tool.name).toBe(true);
      const strict = byName(tool.name).function.parameters;
      expect(valid(strict, toOpenAiArguments(tool, tool.example)), tool.name).toBe(true);
    }
  });
});
