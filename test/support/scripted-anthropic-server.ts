/**
 * A local Anthropic-shaped model server that tests start and script (real HTTP, port 0): the same queue,
 * recording and timing options as scripted-openai-server.ts, answering POST /v1/messages.
 *
 *   const server = await startScriptedAnthropicServer();
 *   server.enqueue({ kind: 'answer', toolCalls: [{ name: 'write_note', args: { text: 'hi' } }] });
 *   // createAnthropic({ baseURL: server.baseURL, apiKey: 'test' })
 *
 * JSON answers are `message` objects with `text` and `tool_use` content blocks; `stream: true` requests get
 * the event sequence message_start, content_block_start/delta/stop per block, message_delta, message_stop.
 */
import {
  type ScriptedAnswer,
  type ScriptedServer,
  type ScriptedToolCall,
  splitText,
  sse,
  startScriptedServer,
  type WireShape,
} from './scripted-server.js';

export type {
  RecordedRequest,
  ScriptedAnswer,
  ScriptedEntry,
  ScriptedError,
  ScriptedResponse,
  ScriptedServer,
  ScriptedToolCall,
} from './scripted-server.js';

const toolId = (call: ScriptedToolCall, n: number, i: number) => call.id ?? `toolu_${n}_${i}`;
const stopOf = (answer: ScriptedAnswer) => ((answer.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn');

export const anthropicShape: WireShape = {
  path: '/v1/messages',
  json(answer, model, n) {
    const content: unknown[] = [];
    if (answer.text !== undefined) content.push({ type: 'text', text: answer.text });
    (answer.toolCalls ?? []).forEach((call, i) => {
      content.push({ type: 'tool_use', id: toolId(call, n, i), name: call.name, input: call.args });
    });
    return {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopOf(answer),
      stop_sequence: null,
      usage: { input_tokens: answer.usage?.input ?? 100, output_tokens: answer.usage?.output ?? 20 },
    };
  },
  stream(answer, model, n) {
    const frames = [
      sse(
        {
          type: 'message_start',
          message: {
            id: `msg_${n}`,
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: answer.usage?.input ?? 100, output_tokens: 1 },
          },
        },
        'message_start',
      ),
    ];
    let index = 0;
    if (answer.text !== undefined) {
      frames.push(
        sse(
          { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
          'content_block_start',
        ),
      );
      for (const piece of splitText(answer.text, answer.chunkSize ?? 8)) {
        frames.push(
          sse(
            { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
            'content_block_delta',
          ),
        );
      }
      frames.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
      index += 1;
    }
    (answer.toolCalls ?? []).forEach((call, i) => {
      frames.push(
        sse(
          {
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: toolId(call, n, i), name: call.name, input: {} },
          },
          'content_block_start',
        ),
      );
      for (const piece of splitText(JSON.stringify(call.args), answer.chunkSize ?? 8)) {
        frames.push(
          sse(
            { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
            'content_block_delta',
          ),
        );
      }
      frames.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
      index += 1;
    });
    frames.push(
      sse(
        {
          type: 'message_delta',
          delta: { stop_reason: stopOf(answer), stop_sequence: null },
          usage: { output_tokens: answer.usage?.output ?? 20 },
        },
        'message_delta',
      ),
    );
    frames.push(sse({ type: 'message_stop' }, 'message_stop'));
    return frames;
  },
  trickleOpening(model, n) {
    return anthropicShape.stream({ kind: 'answer', text: '' }, model, n).slice(0, 2);
  },
  tricklePiece(piece) {
    return sse(
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } },
      'content_block_delta',
    );
  },
  errorBody(status, message) {
    const type = status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'api_error';
    return { type: 'error', error: { type, message } };
  },
};

/** Start an Anthropic-shaped scripted server on a free port. */
export function startScriptedAnthropicServer(): Promise<ScriptedServer> {
  return startScriptedServer(anthropicShape);
}
