/**
 * The shared core of the scripted model servers: a real HTTP server on 127.0.0.1 (port 0) that answers
 * each model request with the next scripted response from a queue and records every request it saw.
 *
 * Use it through one of the two shapes:
 *   - `startScriptedOpenAIServer()`    (scripted-openai-server.ts)    — POST /v1/chat/completions
 *   - `startScriptedAnthropicServer()` (scripted-anthropic-server.ts) — POST /v1/messages
 *
 * Both speak JSON when the request body has no `stream: true`, and server-sent events when it does,
 * from the same scripted reply. See `ScriptedResponse` for everything a test can script.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One tool call the scripted model makes. `args` is sent as JSON; `id` defaults to `call_N`. */
export interface ScriptedToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
}

/** Token counts reported in the response's usage block. Defaults: input 100, output 20. */
export interface ScriptedUsage {
  input: number;
  output: number;
}

/** How the bytes go out. Applies to both JSON and streamed answers. */
export interface ScriptedTiming {
  /** Wait this long before sending anything (status line included). */
  delayMs?: number;
  /**
   * Send the headers and the first part, then one more small piece every `everyMs`, and never finish.
   * Streams send a content delta of `piece` (default '.'); JSON answers send body bytes one at a time.
   * The response only ends when the client disconnects or the server closes.
   */
  trickle?: { everyMs: number; piece?: string };
  /** Pause between streamed chunks (SSE only). Default 0. */
  chunkGapMs?: number;
}

/** A successful answer: text, tool calls, or both. */
export interface ScriptedAnswer extends ScriptedTiming {
  kind: 'answer';
  text?: string;
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /** Streamed text is split into chunks of this many characters. Default 8. */
  chunkSize?: number;
}

/** An HTTP error: e.g. `{ kind: 'error', status: 429, headers: { 'retry-after': '1' } }`. */
export interface ScriptedError extends ScriptedTiming {
  kind: 'error';
  status: number;
  headers?: Record<string, string>;
  /** JSON body; defaults to the provider's error shape with a short message. */
  body?: unknown;
}

/** Close the connection without answering (after `delayMs`). */
export interface ScriptedHangUp extends ScriptedTiming {
  kind: 'hang-up';
}

export type ScriptedResponse = ScriptedAnswer | ScriptedError | ScriptedHangUp;

/** A queue entry: a fixed response, or a function of the request (to echo or branch on what was sent). */
export type ScriptedEntry = ScriptedResponse | ((request: RecordedRequest) => ScriptedResponse);

/** Everything the server saw of one request. */
export interface RecordedRequest {
  /** 0-based, in arrival order. */
  index: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body text exactly as received (search it for canaries). */
  rawBody: string;
  /** The parsed JSON body, or undefined when it was not JSON (loosely typed so tests can reach in). */
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary provider request shapes
  body: any;
  /** True when the connection closed before the response was complete (client abort, or a `hang-up`). */
  aborted: boolean;
  /** True when the response was sent to the end. */
  completed: boolean;
  /** Which scripted response answered it (undefined when the queue was empty). */
  response: ScriptedResponse | undefined;
}

/** Formats a scripted response into one provider's wire shape. */
export interface WireShape {
  /** The POST path this shape answers, e.g. '/v1/chat/completions'. */
  path: string;
  json(answer: ScriptedAnswer, model: string, counter: number): unknown;
  /** The SSE frames of a streamed answer, each already terminated by a blank line. */
  stream(answer: ScriptedAnswer, model: string, counter: number): string[];
  /** The SSE frames that open a trickling stream (up to an open text block). */
  trickleOpening(model: string, counter: number): string[];
  /** One extra SSE frame carrying `piece` as text, for trickling streams. */
  tricklePiece(piece: string, counter: number): string;
  errorBody(status: number, message: string): unknown;
}

export interface ScriptedServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** `url + '/v1'`: pass this as the provider's base URL. */
  baseURL: string;
  /** Every request received so far, model requests and others, in arrival order. */
  requests: RecordedRequest[];
  /** Append responses to the queue; each model request takes the next one. */
  enqueue(...entries: ScriptedEntry[]): void;
  /** How many queued responses have not been used yet. */
  pending(): number;
  /** Resolve once `count` model requests have arrived (rejects after `timeoutMs`, default 5 s). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Resolve once the request at `index` has finished (completed or aborted). */
  waitForSettled(index: number, timeoutMs?: number): Promise<RecordedRequest>;
  /** Stop listening and cut every open connection (trickles included). */
  close(): Promise<void>;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

export async function startScriptedServer(shape: WireShape): Promise<ScriptedServer> {
  const queue: ScriptedEntry[] = [];
  const requests: RecordedRequest[] = [];
  const listeners = new Set<() => void>();
  const closing = new AbortController();
  let counter = 0;

  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    // biome-ignore lint/suspicious/noExplicitAny: see RecordedRequest.body
    let body: any;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const record: RecordedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      rawBody,
      body,
      aborted: false,
      completed: false,
      response: undefined,
    };
    requests.push(record);
    const gone = new AbortController();
    res.on('close', () => {
      record.completed = res.writableFinished;
      record.aborted = !res.writableFinished;
      gone.abort();
      notify();
    });
    notify();

    if (req.method === 'GET' && path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted-model', object: 'model' }] }));
      return;
    }
    if (req.method !== 'POST' || path !== shape.path) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(shape.errorBody(404, `scripted server answers POST ${shape.path} only`)));
      return;
    }
    const entry = queue.shift();
    if (entry === undefined) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          shape.errorBody(500, `scripted server: no response queued for request ${record.index}`),
        ),
      );
      return;
    }
    const response = typeof entry === 'function' ? entry(record) : entry;
    record.response = response;
    const stop = AbortSignal.any([gone.signal, closing.signal]);
    await sleep(response.delayMs ?? 0, stop);
    if (stop.aborted) return;
    counter += 1;
    const model = typeof body?.model === 'string' ? body.model : 'scripted-model';
    if (response.kind === 'hang-up') {
      req.socket.destroy();
      return;
    }
    if (response.kind === 'error') {
      res.writeHead(response.status, { 'content-type': 'application/json', ...(response.headers ?? {}) });
      res.end(
        JSON.stringify(response.body ?? shape.errorBody(response.status, `scripted ${response.status}`)),
      );
      return;
    }
    if (body?.stream === true) await sendStream(res, response, model, counter, stop);
    else await sendJson(res, response, model, counter, stop);
  }

  async function sendJson(
    res: ServerResponse,
    answer: ScriptedAnswer,
    model: string,
    n: number,
    stop: AbortSignal,
  ): Promise<void> {
    const text = JSON.stringify(shape.json(answer, model, n));
    res.writeHead(200, { 'content-type': 'application/json' });
    if (!answer.trickle) {
      res.end(text);
      return;
    }
    // Trickle the body one character per interval; the closing brace never arrives, only spaces after it.
    for (let i = 0; !stop.aborted; i++) {
      res.write(i < text.length - 1 ? text.charAt(i) : ' ');
      await sleep(answer.trickle.everyMs, stop);
    }
  }

  async function sendStream(
    res: ServerResponse,
    answer: ScriptedAnswer,
    model: string,
    n: number,
    stop: AbortSignal,
  ): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    if (answer.trickle) {
      // Open a text block, then send pieces of text forever.
      for (const frame of shape.trickleOpening(model, n)) res.write(frame);
      while (!stop.aborted) {
        await sleep(answer.trickle.everyMs, stop);
        if (!stop.aborted) res.write(shape.tricklePiece(answer.trickle.piece ?? '.', n));
      }
      return;
    }
    for (const frame of shape.stream(answer, model, n)) {
      if (stop.aborted) return;
      res.write(frame);
      if (answer.chunkGapMs) await sleep(answer.chunkGapMs, stop);
    }
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(shape.errorBody(500, `scripted server failed: ${String(error)}`)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  const modelRequests = () => requests.filter((r) => r.path === shape.path);

  return {
    url,
    baseURL: `${url}/v1`,
    requests,
    enqueue: (...entries) => {
      queue.push(...entries);
    },
    pending: () => queue.length,
    waitForRequests(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const seen = modelRequests();
          if (seen.length < count) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(seen);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(
              `scripted server saw ${modelRequests().length} of ${count} requests in ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    waitForSettled(index, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const record = requests[index];
          if (!record || !(record.aborted || record.completed)) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(record);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`request ${index} did not settle in ${timeoutMs} ms`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    async close() {
      closing.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Split text into pieces of `size` characters (at least one piece, possibly empty). */
export function splitText(text: string, size: number): string[] {
  if (text.length === 0) return [];
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

export const sse = (data: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
