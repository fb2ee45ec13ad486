import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAiSdkTools } from '../../src/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { type ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-openai-server.js';
import { tools } from './fixtures/tools.js';

type Sent = { function: { name: string; strict?: boolean; parameters: { required: string[] } } };

describe('toAiSdkTools: the AI SDK calling Lift tools through invoke', () => {
  const home = mkdtempSync(join(tmpdir(), 'lift-ai-sdk-'));
  const runtime = new Runtime({ home, tools });
  let server: ScriptedServer;
  const model = () =>
    createOpenAICompatible({ name: 'scripted', baseURL: server.baseURL, apiKey: 'k' }).chatModel('m');

  beforeAll(async () => {
    server = await startScriptedOpenAIServer();
  });
  afterAll(async () => {
    await server.close();
    await runtime.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('sends every tool strict, runs the call the model wrote for it, and gives back the envelope', async () => {
    server.enqueue(
      { kind: 'answer', toolCalls: [{ name: 'note_list', args: { prefix: null, count: 2 } }] },
      { kind: 'answer', text: 'Two notes.' },
    );
    const result = await generateText({
      model: model(),
      prompt: 'List two notes.',
      tools: await toAiSdkTools(runtime),
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('Two notes.');
    const sent = (server.requests.at(-2)?.body.tools ?? []) as Sent[];
    expect(sent.map((entry) => entry.function.name).sort()).toEqual(tools.map((tool) => tool.name).sort());
    expect(sent.every((entry) => entry.function.strict === true)).toBe(true);
    const list = sent.find((entry) => entry.function.name === 'note_list');
    expect(list?.function.parameters.required).toEqual(['prefix', 'count']);
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      ok: true,
      tool: 'note_list',
      fields: { notes: [{ id: 'N-0' }, { id: 'N-1' }] },
      run_id: expect.any(String),
    });
  });

  it('holds a gated call (nothing runs) and answers a repeated request_id from the ledger', async () => {
    const tag = { request_id: 'req-ai-1', id: 'N-004', tag: 'done', weight: 2 };
    server.enqueue(
      { kind: 'answer', toolCalls: [{ name: 'note_publish', args: { request_id: 'req-ai-2', text: 'hi' } }] },
      { kind: 'answer', toolCalls: [{ name: 'note_tag', args: tag }] },
      { kind: 'answer', toolCalls: [{ name: 'note_tag', args: tag }] },
      { kind: 'answer', text: 'Done.' },
    );
    const result = await generateText({
      model: model(),
      prompt: 'Publish hi, then tag N-004 done twice.',
      tools: await toAiSdkTools(runtime, { names: ['note_publish', 'note_tag'] }),
      stopWhen: stepCountIs(5),
    });
    const outputs = result.steps.flatMap((step) => step.toolResults.map((part) => part.output));
    expect(outputs[0]).toMatchObject({
      ok: false,
      error: { code: 'APPROVAL_PENDING' },
      pending: { approval_id: expect.any(String) },
    });
    expect((await runtime.store.approvals.list()).some((approval) => approval.tool === 'note_publish')).toBe(
      true,
    );
    expect(outputs[1]).toMatchObject({ ok: true, effect: 'changed' });
    expect(outputs[2]).toMatchObject({ ok: true, effect: 'existing' });
  });
});
