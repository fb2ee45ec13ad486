import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/builtin.js';
import type { AnyTool } from '../../src/contract/define-tool.js';
import type { JsonSchema } from '../../src/contract/json-schema.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { fromOpenAiArguments, toOpenAiArguments } from '../../src/serve/openai-arguments.js';
import { STRICT_KEYWORDS } from '../../src/serve/openai-strict.js';
import { toOpenAiTools } from '../../src/serve/to-openai-tools.js';
import { tools as fixtureTools, noteList } from './fixtures/tools.js';

const ajv = new AjvJsonSchemaValidator();
const valid = (schema: JsonSchema, value: unknown) => ajv.getValidator(schema as never)(value).valid;

/** Every way a schema breaks OpenAI's strict-mode rules, with the path where it does. */
function strictViolations(schema: JsonSchema, path: string): string[] {
  const found: string[] = [];
  for (const key of Object.keys(schema))
    if (!STRICT_KEYWORDS.has(key)) found.push(`${path}: keyword '${key}'`);
  const typed = ['type', 'anyOf', 'enum', 'const', '$ref'].some((key) => key in schema);
  if (!typed) found.push(`${path}: no type (strict mode refuses a free value)`);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object')) {
    if (schema.additionalProperties !== false) found.push(`${path}: additionalProperties is not false`);
    const names = Object.keys(schema.properties ?? {}).sort();
    if (JSON.stringify([...(schema.required ?? [])].sort()) !== JSON.stringify(names))
      found.push(`${path}: not every property is required`);
  }
  for (const [name, inner] of Object.entries(schema.properties ?? {}))
    found.push(...strictViolations(inner, `${path}.${name}`));
  if (schema.items) found.push(...strictViolations(schema.items, `${path}[]`));
  for (const [index, inner] of (schema.anyOf ?? []).entries())
    found.push(...strictViolations(inner, `${path}|${index}`));
  for (const [name, inner] of Object.entries((schema.$defs ?? {}) as Record<string, JsonSchema>))
    found.push(...strictViolations(inner, `${path}.$defs.${name}`));
  return found;
}

const home = mkdtempSync(join(tmpdir(), 'lift-openai-strict-'));
const runtime = new Runtime({ home, tools: fixtureTools });
afterAll(async () => {
  await runtime.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the OpenAI export in strict mode', async () => {
  const everyTool: AnyTool[] = [...fixtureTools, ...(await builtinTools())];
  const exported = toOpenAiTools(everyTool);
  const toolNamed = (name: string) => everyTool.find((tool) => tool.name === name)!;

  it('sends every tool Lift ships (and the test tools) with strict: true, inside the rules', () => {
    expect(everyTool.length).toBeGreaterThan(20);
    for (const { function: tool } of exported) {
      expect(tool.strict, tool.name).toBe(true);
      expect(tool.parameters.type, tool.name).toBe('object');
      expect(tool.parameters).not.toHaveProperty('anyOf');
      expect(strictViolations(tool.parameters, tool.name)).toEqual([]);
    }
  });

  it("takes every contract's example written the strict way, and gives back the example", () => {
    for (const { function: exportedTool } of exported) {
      const tool = toolNamed(exportedTool.name);
      const written = toOpenAiArguments(tool, tool.example);
      expect(valid(exportedTool.parameters, written), `${tool.name} ${JSON.stringify(written)}`).toBe(true);
      expect(fromOpenAiArguments(tool, written), tool.name).toEqual(tool.example);
    }
  });

  it('reads null as "left out", entries as a record and JSON text as its value, on the way in', () => {
    const deck = fromOpenAiArguments(toolNamed('build_deck'), {
      request_id: null,
      outline: {
        title: 'Q3',
        file_name: null,
        body_pt: null,
        auto_fit: 'shrink',
        slides: [{ title: 'One', bullets: null, image: null, notes: null }],
      },
    });
    expect(deck).toEqual({ outline: { title: 'Q3', auto_fit: 'shrink', slides: [{ title: 'One' }] } });
    expect(toolNamed('build_deck').input.safeParse(deck).success).toBe(true);
    const chain = fromOpenAiArguments(toolNamed('run_chain'), {
      steps: [
        {
          id: 'a',
          tool: 'note_list',
          args: [
            { key: 'count', value: '3' },
            { key: 'tags', value: '["x"]' },
          ],
        },
      ],
    });
    expect(chain).toEqual({ steps: [{ id: 'a', tool: 'note_list', args: { count: 3, tags: ['x'] } }] });
  });

  it('runs a call the model wrote for the strict schema, optional property sent as null', async () => {
    const envelope = await runtime.invoke(
      noteList,
      fromOpenAiArguments(noteList, { prefix: null, count: 2 }),
    );
    expect(envelope).toMatchObject({ ok: true, fields: { notes: [{ id: 'N-0' }, { id: 'N-1' }] } });
  });
});
