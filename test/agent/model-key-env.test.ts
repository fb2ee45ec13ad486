import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runAgent } from '../../src/agent/loop.js';
import { defineTool } from '../../src/contract/define-tool.js';
import { LiftError } from '../../src/contract/errors.js';
import { modelClientFor } from '../../src/model/model-settings.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { SecretStore } from '../../src/store/secrets.js';
import { type ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-openai-server.js';
import { tempDir } from '../support/temp.js';

const CANARY = 'sk-env-canary-0c9b8a7f6e5d';

/** A tool that tries every way a tool could reach the model's key. */
const probe = defineTool({
  name: 'key_probe',
  description: 'Says whether the model key is visible to a tool.',
  group: 'probe',
  rung: 'api',
  input: z.strictObject({ note: z.string().max(200) }),
  output: z.strictObject({ has_secret: z.boolean(), note: z.string() }),
  effect: { class: 'read' },
  timeout: { deadlineMs: 5000 },
  example: { note: 'x' },
  run: async ({ note }, ctx) => ({
    fields: { has_secret: ctx.hasSecret('openai_api_key'), note },
    summary: `probe: ${note}`,
  }),
});

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the model key from OPENAI_API_KEY', () => {
  const home = tempDir('lift-model-key-');
  let server: ScriptedServer;
  let runtime: Runtime;

  beforeAll(async () => {
    server = await startScriptedOpenAIServer();
    runtime = new Runtime({ home: home.path, env: {}, tools: [probe] });
  });
  afterAll(async () => {
    await server.close();
    await runtime.close();
    home.remove();
  });

  it('reaches the provider only: no tool, envelope, run log or file of Lift sees it', async () => {
    server.enqueue(
      // A model that echoes the key it somehow saw: Lift must not pass it on.
      { kind: 'answer', toolCalls: [{ name: 'key_probe', args: { note: `key ${CANARY}` } }] },
      { kind: 'answer', text: `Done; the key was ${CANARY}.` },
    );
    const client = modelClientFor(
      { model: 'openai:gpt-test', baseURL: server.baseURL, hedgeSeconds: 0 },
      runtime.store.secrets,
      { OPENAI_API_KEY: CANARY },
    );
    const said: string[] = [];
    const result = await runAgent('probe the key', {
      runtime,
      client,
      conversation: { say: (text) => said.push(text), ask: async () => undefined },
      shortlist: false,
    });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${CANARY}`);
    // The tool was called and could not see the key by any secret name.
    const messages = (server.requests[1]?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
    const toolMessages = messages
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.stringify(message.content));
    expect(toolMessages.join('\n')).toMatch(/has_secret\\?":false/);
    expect(toolMessages.join('\n')).not.toContain(CANARY);
    expect(JSON.stringify(result)).not.toContain(CANARY);
    expect(said.join('\n')).not.toContain(CANARY);
    await runtime.close();
    for (const file of filesUnder(home.path)) {
      expect(readFileSync(file).includes(CANARY), file).toBe(false);
    }
  });

  it('names the conventional variable in the hint when no key is stored or set', () => {
    const secrets = new SecretStore(home.path, {});
    const spec = { model: 'anthropic:claude-test', hedgeSeconds: 0 };
    expect(() => modelClientFor(spec, secrets, {})).toThrow(LiftError);
    try {
      modelClientFor(spec, secrets, {});
    } catch (error) {
      expect((error as LiftError).hint).toContain('ANTHROPIC_API_KEY');
    }
    expect(() => modelClientFor(spec, secrets, { ANTHROPIC_API_KEY: CANARY })).not.toThrow();
    expect(secrets.has('anthropic_api_key')).toBe(false);
  });
});
