/** One agent test's world: a scripted model server, a Lift home in a temp folder, the real client. */

import type { Conversation } from '../../src/agent/gate.js';
import { type AgentOptions, type AgentResult, runAgent } from '../../src/agent/loop.js';
import type { AnyTool } from '../../src/contract/define-tool.js';
import { ModelClient, type ModelClientOptions } from '../../src/model/model-client.js';
import { createLanguageModel } from '../../src/model/model-provider.js';
import { apiKeySecretName, parseModelSpec } from '../../src/model/model-spec.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { startScriptedAnthropicServer } from '../support/scripted-anthropic-server.js';
import {
  type RecordedRequest,
  type ScriptedServer,
  startScriptedOpenAIServer,
} from '../support/scripted-openai-server.js';
import { tempDir } from '../support/temp.js';
import { testTools } from './tools.js';

export const API_KEY_CANARY = 'sk-canary-api-key-5f1e2d3c4b';
export const TOKEN_CANARY = 'tok-canary-6a7b8c9d0e';

/** The test tools' groups and signals, as a user would add them in lift.config. */
export const TEST_SHORTLIST = {
  groups: {
    notes: {
      signals: [
        { pattern: String.raw`\bnotes?\b`, weight: 8 },
        { pattern: String.raw`\bwords?\b|\bsummary\b`, weight: 5 },
        { pattern: String.raw`\badd\b|\btotal\b|\bsum\b`, weight: 5 },
      ],
      programs: ['notepad'],
      kinds: { document: 6 },
    },
    chat: {
      signals: [
        { pattern: String.raw`\bslack\b|\bchat\b`, weight: 10 },
        { pattern: String.raw`(?:^|\s)#[a-z][\w-]*`, weight: 6 },
        { pattern: String.raw`\bpost\b|\bsend\b`, weight: 4 },
      ],
      programs: [],
      kinds: {},
    },
  },
};

/** The tool names a recorded request offered the model, in either wire shape. */
export function offeredTools(request: RecordedRequest | undefined): string[] {
  const tools = (request?.body?.tools ?? []) as Array<{ name?: string; function?: { name: string } }>;
  return tools.map((tool) => tool.function?.name ?? tool.name ?? '');
}

export interface Harness {
  server: ScriptedServer;
  runtime: Runtime;
  client: ModelClient;
  home: string;
  /** Everything the run said, line by line. */
  lines: string[];
  /** The questions the run asked. */
  asked: string[];
  run(request: string, options?: Partial<AgentOptions> & { replies?: string[] }): Promise<AgentResult>;
  close(): Promise<void>;
}

export async function startHarness(
  options: { shape?: 'openai' | 'anthropic'; tools?: AnyTool[]; client?: Partial<ModelClientOptions> } = {},
): Promise<Harness> {
  const shape = options.shape ?? 'openai';
  const server =
    shape === 'openai' ? await startScriptedOpenAIServer() : await startScriptedAnthropicServer();
  const home = tempDir('lift-agent-');
  const spec = parseModelSpec(shape === 'openai' ? 'openai:gpt-test' : 'anthropic:claude-test');
  const runtime = new Runtime({
    home: home.path,
    env: {
      [`LIFT_SECRET_${apiKeySecretName(spec).toUpperCase()}`]: API_KEY_CANARY,
      LIFT_SECRET_API_TOKEN: TOKEN_CANARY,
    },
    tools: options.tools ?? testTools,
  });
  const model = createLanguageModel({
    spec,
    baseURL: server.baseURL,
    apiKey: runtime.store.secrets.get(apiKeySecretName(spec)),
  });
  const client = new ModelClient({
    model,
    provider: spec.provider,
    modelName: spec.model,
    maxOutputTokens: 1024,
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
    attemptDeadlineMs: 10_000,
    ...options.client,
  });
  const lines: string[] = [];
  const asked: string[] = [];
  return {
    server,
    runtime,
    client,
    home: home.path,
    lines,
    asked,
    run(request, runOptions = {}) {
      const { replies, ...rest } = runOptions;
      const queue = replies ? [...replies] : undefined;
      const conversation: Conversation = {
        say: (text) => lines.push(text),
        ask: async (question) => {
          asked.push(question);
          return queue?.shift();
        },
      };
      return runAgent(request, { runtime, client, conversation, shortlistConfig: TEST_SHORTLIST, ...rest });
    },
    async close() {
      await server.close();
      await runtime.close();
      home.remove();
    },
  };
}
