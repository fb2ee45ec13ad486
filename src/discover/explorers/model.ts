import { jsonSchema } from '@ai-sdk/provider-utils';
import type { ModelMessage, ToolSet } from 'ai';
import { LiftError } from '../../contract/errors.js';
import type { ModelClient } from '../../model/model-client.js';
import { EXPLORER_TOOL_NAMES, EXPLORER_TOOLS, explorerToolJsonSchema } from '../explorer-tools.js';
import type { DiscoverySession } from '../session.js';
import type { Explorer, ExplorerBrief } from './explorer.js';

/** The four application tools as the AI SDK sends them, and nothing else. */
export function explorerToolSet(): ToolSet {
  const set: ToolSet = {};
  for (const name of EXPLORER_TOOL_NAMES) {
    set[name] = {
      description: EXPLORER_TOOLS[name].description,
      inputSchema: jsonSchema(explorerToolJsonSchema(name) as Parameters<typeof jsonSchema>[0]),
    };
  }
  return set;
}

/** Refuses to spend a model call when the tools on offer are not exactly the four. */
export function preflight(tools: ToolSet): void {
  const offered = Object.keys(tools).sort();
  const expected = [...EXPLORER_TOOL_NAMES].sort();
  if (offered.length !== expected.length || offered.some((name, index) => name !== expected[index])) {
    throw new LiftError(
      'POLICY_BLOCKED',
      `Preflight refused the model call: it would offer [${offered.join(', ')}], not exactly [${expected.join(', ')}].`,
      {
        hint: 'Discovery gives a model the four application tools and nothing else; no call was made.',
        outcome: 'not_started',
      },
    );
  }
}

const SYSTEM = `You explore one screen of a legacy web application to complete one task, through four tools: observe, act, request_handoff, complete.
Rules: observe before acting; act on [ref]s from the latest observation or on semantic targets; never type a placeholder such as ⟦input:memberId⟧ — refer to a bound input as {"input":"NAME"} in a value; read each output with {"op":"read","target":…,"as":"NAME"} (its reply says what kind of value it read, not the value: check it is what the output should hold); an action that was rejected or changed nothing is not repeated blindly — read its hint; ask request_handoff for anything you may not do (sign-in, second factor). When every output is read, call complete with the outputs and a checkpoint: the element that shows a bound input (for example the cell in the Member ID column).`;

function briefText(brief: ExplorerBrief): string {
  return [
    `Task: ${brief.task}`,
    `Inputs (bound; you never see their values): ${brief.inputs.join(', ')}`,
    `Outputs to read: ${brief.outputs.map((output) => `${output.name} (${output.type})`).join(', ')}`,
    `The browser is on ${new URL(brief.startUrl).pathname}. Start with observe.`,
  ].join('\n');
}

export interface ModelExplorerOptions {
  client: ModelClient;
  maxTurns?: number;
  /** Replaces the tool set; only tests use it, to prove the preflight. */
  tools?: ToolSet;
}

/** Lift's own explorer: a configured model, the four tools, one conversation per session. */
export class ModelExplorer implements Explorer {
  readonly kind = 'model' as const;
  readonly model: string;
  readonly usage = { calls: 0, inputTokens: 0, outputTokens: 0 };
  readonly #options: ModelExplorerOptions;

  constructor(options: ModelExplorerOptions) {
    this.#options = options;
    this.model = `${options.client.provider}:${options.client.modelName}`;
  }

  async explore(session: DiscoverySession, brief: ExplorerBrief): Promise<void> {
    const tools = this.#options.tools ?? explorerToolSet();
    const messages: ModelMessage[] = [{ role: 'user', content: briefText(brief) }];
    const maxTurns = this.#options.maxTurns ?? 30;
    for (let turn = 0; turn < maxTurns && session.outcome === 'running'; turn++) {
      try {
        preflight(tools);
      } catch (error) {
        session.record('model-preflight-refused', { offered: Object.keys(tools) });
        session.abandon('the preflight refused the tool list', 'failed');
        throw error;
      }
      const answer = await this.#options.client.call(
        { system: SYSTEM, messages, tools },
        { onEvent: (event) => session.record(event.type, { ...event }) },
      );
      this.usage.calls++;
      this.usage.inputTokens += answer.inputTokens;
      this.usage.outputTokens += answer.outputTokens;
      session.record('model-called', {
        provider: this.#options.client.provider,
        model: this.#options.client.modelName,
        input_tokens: answer.inputTokens,
        output_tokens: answer.outputTokens,
        estimated: answer.estimated,
        ms: Math.round(answer.durationMs),
        tool_calls: answer.toolCalls.map((call) => call.name),
      });
      messages.push(answer.message);
      if (answer.toolCalls.length === 0) {
        messages.push({ role: 'user', content: 'Use the tools. Call complete when every output is read.' });
        continue;
      }
      const results = [];
      for (const call of answer.toolCalls) {
        const reply = await session.call(call.name, call.input);
        results.push({
          type: 'tool-result' as const,
          toolCallId: call.id,
          toolName: call.name,
          output: { type: 'text' as const, value: JSON.stringify(reply) },
        });
        if (session.outcome !== 'running') break;
      }
      messages.push({ role: 'tool', content: results });
    }
    if (session.outcome === 'running')
      session.abandon(`the model stopped after ${maxTurns} turns without completing`);
  }
}
