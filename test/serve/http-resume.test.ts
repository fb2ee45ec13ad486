import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Runtime } from '../../src/runtime/runtime.js';
import { PRIME_AFTER_MS } from '../../src/serve/deferred-priming.js';
import { type HttpServing, serveHttp } from '../../src/serve/http.js';
import { noteRead, noteWait } from './fixtures/tools.js';

const TOKEN = 'resume-token-4f0c2a9d';
/** The first protocol version whose clients take a priming event (an id, no data). */
const PROTOCOL = '2025-11-25';

interface SseEvent {
  id?: string;
  data: string;
}

/** Reads SSE events off a response body until `enough` says so or the stream ends. */
async function readEvents(
  response: Response,
  enough: (events: SseEvent[]) => boolean = () => false,
): Promise<{ events: SseEvent[]; ended: boolean; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = '';
  while (!enough(events)) {
    const { value, done } = await reader.read();
    if (done) return { events, ended: true, reader };
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const event: SseEvent = { data: '' };
      for (const line of buffer.slice(0, end).split('\n')) {
        if (line.startsWith('id: ')) event.id = line.slice(4);
        else if (line.startsWith('data: ')) event.data += line.slice(6);
      }
      buffer = buffer.slice(end + 2);
      events.push(event);
    }
  }
  return { events, ended: false, reader };
}

describe('lift serve over Streamable HTTP: which calls can be resumed', () => {
  const home = mkdtempSync(join(tmpdir(), 'lift-http-resume-'));
  const runtime = new Runtime({ home, tools: [noteRead, noteWait] });
  let serving: HttpServing;
  let session = '';
  let nextId = 10;

  const headers = (more: Record<string, string> = {}) => ({
    authorization: `Bearer ${TOKEN}`,
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL } : {}),
    ...more,
  });
  const post = (message: Record<string, unknown>) =>
    fetch(serving.url, { method: 'POST', headers: headers(), body: JSON.stringify(message) });
  const call = (name: string, args: Record<string, unknown>) =>
    post({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } });

  beforeAll(async () => {
    serving = await serveHttp(runtime, { port: 0, token: TOKEN });
    const initialized = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'resume', version: '1' } },
    });
    session = initialized.headers.get('mcp-session-id') ?? '';
    await initialized.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  }, 30_000);

  afterAll(async () => {
    await serving.close();
    await runtime.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('answers an ordinary call with its result alone: no priming event, no id, nothing kept', async () => {
    const response = await call('note_read', { id: 'N-001' });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const { events, ended } = await readEvents(response);
    expect(ended).toBe(true);
    expect(events).toHaveLength(1);
    expect(events[0]?.id).toBeUndefined();
    expect(JSON.parse(events[0]?.data ?? '')).toMatchObject({
      result: { structuredContent: { ok: true, fields: { id: 'N-001' } } },
    });
  });

  it('primes a long call, and a client whose stream broke gets its answer with Last-Event-ID', async () => {
    const started = Date.now();
    const response = await call('note_wait', { marker: 'resumed', ms: PRIME_AFTER_MS + 400 });
    const id = nextId - 1;
    // The priming event: an id to resume from, and no data.
    const { events, reader } = await readEvents(response, (seen) => seen.some((event) => event.id));
    const priming = events.find((event) => event.id);
    expect(priming).toMatchObject({ data: '' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(PRIME_AFTER_MS - 5);
    // The stream breaks before the answer. Until the server has seen it break, the stream is
    // still its own and a resume is refused with 409 (the SDK's client waits a second first).
    await reader.cancel();
    let resumed: Response;
    for (let attempt = 0; ; attempt++) {
      resumed = await fetch(serving.url, {
        method: 'GET',
        headers: headers({ accept: 'text/event-stream', 'last-event-id': priming?.id ?? '' }),
      });
      if (resumed.status !== 409 || attempt === 50) break;
      await resumed.text();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(resumed.status).toBe(200);
    const replayed = await readEvents(resumed, (seen) => seen.some((event) => event.data));
    await replayed.reader.cancel();
    expect(JSON.parse(replayed.events.find((event) => event.data)?.data ?? '')).toMatchObject({
      id,
      result: { structuredContent: { ok: true, fields: { waited_ms: expect.any(Number) } } },
    });
  });
});
