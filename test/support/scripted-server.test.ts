import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, streamText, type ToolSet } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedAnthropicServer } from './scripted-anthropic-server.js';
import { type ScriptedServer, startScriptedOpenAIServer } from './scripted-openai-server.js';

const tools: ToolSet = {
  note: {
    description: 'write a note',
    inputSchema: jsonSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
  },
};

let servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const shapes = {
  openai: async () => {
    const server = await startScriptedOpenAIServer();
    const provider = createOpenAICompatible({ name: 'scripted', baseURL: server.baseURL, apiKey: 'k' });
    return { server, model: provider.chatModel('scripted-model') };
  },
  anthropic: async () => {
    const server = await startScriptedAnthropicServer();
    const provider = createAnthropic({ baseURL: server.baseURL, apiKey: 'k' });
    return { server, model: provider('claude-test') };
  },
};

describe.each(Object.entries(shapes))('scripted %s server', (_name, start) => {
  it('answers text and tool calls in JSON and in streams, and records what was sent', async () => {
    const { server, model } = await start();
    servers.push(server);
    server.enqueue(
      { kind: 'answer', text: 'hello there', usage: { input: 7, output: 3 } },
      { kind: 'answer', toolCalls: [{ name: 'note', args: { text: 'hi' } }] },
      { kind: 'answer', text: 'streamed answer', chunkSize: 3 },
    );
    const first = await generateText({ model, prompt: 'say hello', maxRetries: 0 });
    expect(first.text).toBe('hello there');
    expect(first.usage.inputTokens).toBe(7);
    const second = await generateText({ model, prompt: 'note', tools, maxRetries: 0 });
    expect(second.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['note', { text: 'hi' }]]);
    const third = streamText({ model, prompt: 'stream', maxRetries: 0 });
    expect(await third.text).toBe('streamed answer');
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1]?.rawBody).toContain('"note"');
    expect(server.requests[2]?.body.stream).toBe(true);
    expect(server.pending()).toBe(0);
  });

  it('sends scripted errors and records a client abort of a trickling stream', async () => {
    const { server, model } = await start();
    servers.push(server);
    server.enqueue(
      { kind: 'error', status: 429, headers: { 'retry-after': '0' } },
      { kind: 'answer', text: 'x', trickle: { everyMs: 20 } },
    );
    await expect(generateText({ model, prompt: 'a', maxRetries: 0 })).rejects.toThrow();
    const controller = new AbortController();
    const stream = streamText({ model, prompt: 'b', maxRetries: 0, abortSignal: controller.signal });
    let pieces = 0;
    for await (const part of stream.textStream) {
      pieces += part.length;
      if (pieces >= 3) controller.abort();
    }
    const settled = await server.waitForSettled(1);
    expect(settled.aborted).toBe(true);
  });
});
