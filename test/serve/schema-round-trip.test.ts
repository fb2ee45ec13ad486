import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { generateText, jsonSchema, type LanguageModel, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Runtime } from '../../src/runtime/runtime.js';
import type { AnthropicTool } from '../../src/serve/to-anthropic-tools.js';
import { toMcpTools } from '../../src/serve/to-mcp-tools.js';
import type { OpenAiTool } from '../../src/serve/to-openai-tools.js';
import { noteRead, noteTag, tools } from './fixtures/tools.js';
import { registeredTools, runLift, stable, type Workspace, workspace } from './support.js';

type Json = Record<string, unknown>;

/** A local stand-in for a provider's HTTP API: records each request body, answers with one tool call. */
async function fakeProvider(
  answer: (body: Json) => Json,
): Promise<{ url: string; bodies: Json[]; server: Server }> {
  const bodies: Json[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      const body = JSON.parse(text) as Json;
      bodies.push(body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies, server };
}

const ajv = new AjvJsonSchemaValidator();

/** The ai SDK's jsonSchema helper, validating the model's arguments against the exported schema. */
function validated(schema: Json) {
  const check = ajv.getValidator(schema as never);
  return jsonSchema<Json>(schema, {
    validate: (value) => {
      const result = check(value);
      return result.valid
        ? { success: true, value: value as Json }
        : { success: false, error: new Error(result.errorMessage) };
    },
  });
}

describe('lift schema round-trips through each provider and back through lift call', () => {
  let ws: Workspace;
  const directHome = mkdtempSync(join(tmpdir(), 'lift-serve-direct-'));
  const direct = new Runtime({ home: directHome, tools });
  const exported: Record<'openai' | 'anthropic' | 'mcp', unknown> = { openai: [], anthropic: [], mcp: {} };

  beforeAll(async () => {
    ws = workspace();
    for (const format of ['openai', 'anthropic', 'mcp'] as const) {
      const ran = await runLift(ws, ['schema', '--format', format]);
      expect(ran.code, ran.stderr).toBe(0);
      exported[format] = JSON.parse(ran.stdout);
    }
  }, 120_000);

  afterAll(async () => {
    await direct.close();
    rmSync(directHome, { recursive: true, force: true });
    ws.remove();
  });

  async function viaLiftCall(name: string, input: unknown): Promise<Json> {
    const ran = await runLift(ws, ['call', name, '--input', JSON.stringify(input)]);
    return JSON.parse(ran.stdout) as Json;
  }

  it('exports the MCP tools/list exactly as the server lists the registered tools, each a valid MCP tool', async () => {
    const listed = exported.mcp as { tools: Array<{ name: string }> };
    expect(listed.tools).toEqual(JSON.parse(JSON.stringify(toMcpTools(await registeredTools()))));
    for (const entry of listed.tools) expect(ToolSchema.safeParse(entry).success, entry.name).toBe(true);
  });

  it('OpenAI: the strict function reaches the provider as exported, and its call comes back as the direct envelope', async () => {
    const entry = (exported.openai as OpenAiTool[]).find(
      (candidate) => candidate.function.name === 'note_tag',
    )!;
    expect(entry.function.strict).toBe(true);
    const input = { ...noteTag.example, request_id: 'req-openai-1' };
    const provider = await fakeProvider(() => ({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'note_tag', arguments: JSON.stringify(input) },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    }));
    try {
      const model: LanguageModel = createOpenAI({ baseURL: provider.url, apiKey: 'test-key' }).chat(
        'gpt-test',
      );
      const result = await generateText({
        model,
        prompt: 'Mark N-001 done.',
        tools: {
          note_tag: tool({
            description: entry.function.description,
            inputSchema: validated(entry.function.parameters),
            strict: entry.function.strict,
            execute: (args) => viaLiftCall('note_tag', args),
          }),
        },
      });
      const sent = (provider.bodies[0]?.tools as Json[] | undefined)?.[0];
      expect(sent).toEqual(entry);
      const envelope = result.toolResults[0]?.output as Json;
      expect(stable(envelope)).toEqual(stable((await direct.invoke(noteTag, input)) as unknown as Json));
      expect(envelope).toMatchObject({ ok: true, effect: 'changed', fields: { id: 'N-001', tag: 'done' } });
    } finally {
      provider.server.close();
    }
  });

  it('Anthropic: the input_schema reaches the provider as exported, and its call comes back as the direct envelope', async () => {
    const entry = (exported.anthropic as AnthropicTool[]).find(
      (candidate) => candidate.name === 'note_read',
    )!;
    expect(entry.input_schema.type).toBe('object');
    const input = { id: 'N-017' };
    const provider = await fakeProvider(() => ({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'note_read', input }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    }));
    try {
      const model: LanguageModel = createAnthropic({ baseURL: provider.url, apiKey: 'test-key' })(
        'claude-test',
      );
      const result = await generateText({
        model,
        prompt: 'Read N-017.',
        tools: {
          note_read: tool({
            description: entry.description,
            inputSchema: validated(entry.input_schema),
            execute: (args) => viaLiftCall('note_read', args),
          }),
        },
      });
      const sent = (provider.bodies[0]?.tools as Json[] | undefined)?.[0];
      expect(sent).toMatchObject({
        name: entry.name,
        description: entry.description,
        input_schema: entry.input_schema,
      });
      const envelope = result.toolResults[0]?.output as Json;
      expect(stable(envelope)).toEqual(stable((await direct.invoke(noteRead, input)) as unknown as Json));
    } finally {
      provider.server.close();
    }
  });

  it('refuses, before anything runs, a call the exported schema forbids', async () => {
    const entry = (exported.openai as OpenAiTool[]).find(
      (candidate) => candidate.function.name === 'note_tag',
    )!;
    const check = ajv.getValidator(entry.function.parameters as never);
    const bad = { ...noteTag.example, weight: 42 };
    expect(check(bad).valid).toBe(false);
    const envelope = await viaLiftCall('note_tag', bad);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'BAD_INPUT', outcome: 'not_started' } });
  });
});
