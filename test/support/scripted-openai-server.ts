/**
 * A local OpenAI-compatible model server that tests start and script (real HTTP, port 0).
 *
 *   const server = await startScriptedOpenAIServer();
 *   server.enqueue(
 *     { kind: 'answer', toolCalls: [{ name: 'write_note', args: { text: 'hi' } }] },
 *     { kind: 'error', status: 429, headers: { 'retry-after': '1' } },
 *     { kind: 'answer', text: 'Done.', usage: { input: 1384, output: 12 } },
 *     { kind: 'answer', text: 'late', delayMs: 3000 },               // slow first byte
 *     { kind: 'answer', text: 'never ends', trickle: { everyMs: 50 } }, // trickles forever
 *     (request) => ({ kind: 'answer', text: `saw ${request.body.messages.length} messages` }),
 *   );
 *   // point the client at server.baseURL (http://127.0.0.1:PORT/v1), then:
 *   server.requests[0].body.tools    // what was sent; rawBody for canary searches
 *   server.requests[0].aborted       // the client hung up before the answer finished
 *   await server.close();
 *
 * POST /v1/chat/completions answers with a `chat.completion` JSON object, or with `chat.completion.chunk`
 * server-sent events ending in `data: [DONE]` when the request says `stream: true` (usage in the last chunk).
 * GET /v1/models lists one model. Any other path is a 404; a request with nothing queued gets a 500 that
 * says so. All options are described in scripted-server.ts.
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

const callId = (call: ScriptedToolCall, n: number, i: number) => call.id ?? `call_${n}_${i}`;

const usageOf = (answer: ScriptedAnswer) => {
  const input = answer.usage?.input ?? 100;
  const output = answer.usage?.output ?? 20;
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
};

const finishOf = (answer: ScriptedAnswer) => ((answer.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');

export const openAIShape: WireShape = {
  path: '/v1/chat/completions',
  json(answer, model, n) {
    const toolCalls = (answer.toolCalls ?? []).map((call, i) => ({
      id: callId(call, n, i),
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
    return {
      id: `chatcmpl-${n}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: answer.text ?? null,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: finishOf(answer),
        },
      ],
      usage: usageOf(answer),
    };
  },
  stream(answer, model, n) {
    const base = {
      id: `chatcmpl-${n}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model,
    };
    const chunk = (delta: unknown, finish: string | null = null, extra: object = {}) =>
      sse({ ...base, choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
    const frames = [chunk({ role: 'assistant', content: '' })];
    for (const piece of splitText(answer.text ?? '', answer.chunkSize ?? 8))
      frames.push(chunk({ content: piece }));
    (answer.toolCalls ?? []).forEach((call, i) => {
      const args = JSON.stringify(call.args);
      frames.push(
        chunk({
          tool_calls: [
            {
              index: i,
              id: callId(call, n, i),
              type: 'function',
              function: { name: call.name, arguments: '' },
            },
          ],
        }),
      );
      for (const piece of splitText(args, answer.chunkSize ?? 8)) {
        frames.push(chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }));
      }
    });
    frames.push(chunk({}, finishOf(answer), { usage: usageOf(answer) }));
    frames.push(sse('[DONE]'));
    return frames;
  },
  trickleOpening(model, n) {
    return openAIShape.stream({ kind: 'answer' }, model, n).slice(0, 1);
  },
  tricklePiece(piece, n) {
    return sse({
      id: `chatcmpl-${n}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: 'scripted-model',
      choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
    });
  },
  errorBody(status, message) {
    return {
      error: { message, type: status === 429 ? 'rate_limit_error' : 'server_error', code: String(status) },
    };
  },
};

/** Start an OpenAI-compatible scripted server on a free port. */
export function startScriptedOpenAIServer(): Promise<ScriptedServer> {
  return startScriptedServer(openAIShape);
}
