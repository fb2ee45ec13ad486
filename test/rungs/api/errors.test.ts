import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorEnvelope } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';
import { sendJson, startTestServer, type TestServer } from './http-server.js';
import { widget, widgetTools } from './widgets.js';

describe('API errors map to the catalogue', () => {
  let server: TestServer;
  let runtime: Runtime;
  const home = tempDir();
  beforeAll(async () => {
    server = await startTestServer();
    runtime = new Runtime({ home: home.path, tools: widgetTools(server.url) });
  });
  afterEach(() => {
    server.seen.length = 0;
  });
  afterAll(async () => {
    await runtime.close();
    await server.close();
    home.remove();
  });

  const read = () => runtime.invoke('widget_get', { id: 'W-001' }) as Promise<ErrorEnvelope>;

  it.each([
    [401, 'AUTH_REQUIRED'],
    [403, 'AUTH_REQUIRED'],
    [404, 'NOT_FOUND'],
    [409, 'CONFLICT'],
  ])('HTTP %i -> %s', async (status, code) => {
    server.handle((_, response) => sendJson(response, status, { message: 'nope' }));
    const envelope = await read();
    expect(envelope.ok).toBe(false);
    expect(envelope.error.code).toBe(code);
    expect(envelope.error.outcome).toBe('not_started');
    expect(server.seen).toHaveLength(1);
  });

  it.each([400, 422])('HTTP %i -> BAD_INPUT with the server message as the hint', async (status) => {
    server.handle((_, response) =>
      sendJson(response, status, { error: { message: 'name must not contain emoji' } }),
    );
    const envelope = await read();
    expect(envelope.error.code).toBe('BAD_INPUT');
    expect(envelope.error.hint).toContain('name must not contain emoji');
    expect(envelope.error.retry).toBe('no');
  });

  it('HTTP 429 with a Retry-After that fits the deadline is waited out, then the call succeeds', async () => {
    let calls = 0;
    server.handle((_, response) => {
      calls++;
      if (calls === 1) return sendJson(response, 429, { message: 'slow down' }, { 'retry-after': '1' });
      sendJson(response, 200, widget());
    });
    const envelope = await runtime.invoke('widget_get', { id: 'W-001' });
    expect(envelope).toMatchObject({ ok: true, fields: { id: 'W-001' } });
    expect(server.seen).toHaveLength(2);
    const events = await runtime.store.runs.events((envelope as { run_id: string }).run_id);
    const wait = events.find((event) => event.type === 'rate-limit-waited');
    expect(wait?.ms).toBe(1000);
    const times = events
      .filter((event) => event.type === 'http-request-sent')
      .map((event) => Date.parse(event.t));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(900);
  });

  it('HTTP 429 with a Retry-After beyond the deadline -> RATE_LIMITED at once, with the wait in details', async () => {
    server.handle((_, response) => sendJson(response, 429, {}, { 'retry-after': '120' }));
    const started = Date.now();
    const envelope = await read();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(envelope.error).toMatchObject({
      code: 'RATE_LIMITED',
      retry: 'yes',
      details: { retry_after_seconds: 120 },
    });
    expect(envelope.error.hint).toContain('120 s');
    expect(server.seen).toHaveLength(1);
  });

  it('a read retries server errors a bounded number of times', async () => {
    let calls = 0;
    server.handle((_, response) => {
      calls++;
      if (calls < 3) return sendJson(response, 503, { message: 'warming up' });
      sendJson(response, 200, widget());
    });
    expect(await runtime.invoke('widget_get', { id: 'W-001' })).toMatchObject({ ok: true });
    expect(server.seen).toHaveLength(3);

    server.seen.length = 0;
    server.handle((_, response) => sendJson(response, 500, { message: 'down' }));
    const envelope = await read();
    expect(envelope.error).toMatchObject({ code: 'UPSTREAM_ERROR', retry: 'yes', outcome: 'not_started' });
    expect(server.seen).toHaveLength(3);
  });

  it('a write that meets a server error is sent once and must be settled before a retry', async () => {
    server.handle((_, response) => sendJson(response, 502, { message: 'bad gateway' }));
    const envelope = (await runtime.invoke('widget_ship', {
      id: 'W-001',
      request_id: 'ship-1',
    })) as ErrorEnvelope;
    expect(envelope.error).toMatchObject({
      code: 'UPSTREAM_ERROR',
      retry: 'after_check',
      outcome: 'unknown',
    });
    expect(envelope.error.settle).toBe('widget_get on the same record');
    expect(server.seen).toHaveLength(1);
    const again = (await runtime.invoke('widget_ship', {
      id: 'W-001',
      request_id: 'ship-1',
    })) as ErrorEnvelope;
    expect(again.error.code).toBe('OUTCOME_UNKNOWN');
    expect(server.seen).toHaveLength(1);
  });

  it('a response with a renamed field -> SURFACE_CHANGED naming the field', async () => {
    server.handle((_, response) => sendJson(response, 200, { id: 'W-001', name: 'Sprocket', state: 'new' }));
    const envelope = await read();
    expect(envelope.error.code).toBe('SURFACE_CHANGED');
    expect(envelope.error.message).toContain('status');
    expect(envelope.error.retry).toBe('no');
  });

  it('a value outside the declared enum -> SURFACE_CHANGED', async () => {
    server.handle((_, response) => sendJson(response, 200, { ...widget(), status: 'lost' }));
    expect((await read()).error.code).toBe('SURFACE_CHANGED');
  });

  it('a server that never answers ends at the deadline with TIMEOUT', async () => {
    server.handle(() => {
      // Never answers.
    });
    const started = Date.now();
    const envelope = await read();
    expect(envelope.error.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('trims the output to the fields named in the contract', async () => {
    server.handle((_, response) => sendJson(response, 200, widget()));
    const tools = widgetTools(server.url, undefined, (file) => {
      file.tools.find((tool) => tool.name === 'widget_get')!.output.fields = ['id', 'status'];
    });
    const local = new Runtime({ home: home.path, tools });
    try {
      const envelope = await local.invoke('widget_get', { id: 'W-001' });
      expect(envelope).toMatchObject({ ok: true, fields: { id: 'W-001', status: 'new' } });
      expect(JSON.stringify(envelope)).not.toContain('internal');
    } finally {
      await local.close();
    }
  });

  it('a list endpoint that stops answering with a list -> SURFACE_CHANGED', async () => {
    server.handle((_, response) => sendJson(response, 200, { results: [] }));
    const envelope = (await runtime.invoke('widgets_list', {})) as ErrorEnvelope;
    expect(envelope.error.code).toBe('SURFACE_CHANGED');
  });

  it('a refused connection sent nothing, so even a write reports not_started', async () => {
    const closed = await startTestServer();
    const url = closed.url;
    await closed.close();
    const local = new Runtime({ home: home.path, tools: widgetTools(url) });
    try {
      const write = (await local.invoke('widget_ship', {
        id: 'W-001',
        request_id: 'ship-refused',
      })) as ErrorEnvelope;
      // Unreachable, not a server error: nothing was sent, so calling again as is is safe.
      expect(write.error).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        retry: 'yes',
        outcome: 'not_started',
      });
      const read = (await local.invoke('widget_get', { id: 'W-001' })) as ErrorEnvelope;
      expect(read.error).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        retry: 'yes',
        outcome: 'not_started',
      });
    } finally {
      await local.close();
    }
  });
});
