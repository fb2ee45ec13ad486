import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importOpenApi } from '../../../src/rungs/api/import.js';
import { toolsFromApiFile } from '../../../src/rungs/api/loader.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';
import { sendJson, startTestServer, type TestServer } from './http-server.js';
import { widget, widgetSpec, widgetTools } from './widgets.js';

describe('writes and pages on the API rung', () => {
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

  it('sends request_id as Idempotency-Key, and a repeat returns the first result without a second request', async () => {
    server.handle((request, response) =>
      sendJson(response, 201, { ...widget('W-007'), name: JSON.parse(request.body).name }),
    );
    const first = await runtime.invoke('widget_create', { name: 'Gear', request_id: 'create-gear-1' });
    expect(first).toMatchObject({ ok: true, effect: 'changed', fields: { id: 'W-007', name: 'Gear' } });
    expect(server.seen[0]?.headers['idempotency-key']).toBe('create-gear-1');
    expect(JSON.parse(server.seen[0]!.body)).toEqual({ name: 'Gear' });
    const again = await runtime.invoke('widget_create', { name: 'Gear', request_id: 'create-gear-1' });
    expect(again).toMatchObject({ ok: true, effect: 'existing', fields: { id: 'W-007' } });
    expect(server.seen).toHaveLength(1);
  });

  it('keeps request_id in the ledger where the API has no idempotency header', async () => {
    server.handle((_, response) => sendJson(response, 200, { ...widget(), status: 'shipped' }));
    await runtime.invoke('widget_ship', { id: 'W-001', request_id: 'ship-w1' });
    const again = await runtime.invoke('widget_ship', { id: 'W-001', request_id: 'ship-w1' });
    expect(again).toMatchObject({ ok: true, effect: 'existing' });
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('requires request_id on writes and refuses an unknown argument', async () => {
    expect(await runtime.invoke('widget_ship', { id: 'W-001' })).toMatchObject({
      error: { code: 'BAD_INPUT' },
    });
    expect(await runtime.invoke('widget_get', { id: 'W-001', url: 'http://elsewhere' })).toMatchObject({
      error: { code: 'BAD_INPUT' },
    });
    expect(server.seen).toHaveLength(0);
  });

  it('holds a visible write for review by default', async () => {
    const tools = toolsFromApiFile(importOpenApi(widgetSpec()).file, { baseUrl: server.url });
    const gated = new Runtime({ home: home.path, tools });
    try {
      const held = await gated.invoke('widget_create', { name: 'Cog', request_id: 'cog-1' });
      expect(held).toMatchObject({
        ok: false,
        error: { code: 'APPROVAL_PENDING' },
        pending: { gate: 'review' },
      });
      expect(server.seen).toHaveLength(0);
    } finally {
      await gated.close();
    }
  });

  it('fetches pages up to the bound it is given and says how to get the rest', async () => {
    const all = ['W-001', 'W-002', 'W-003', 'W-004', 'W-005'].map((id) => widget(id));
    server.handle((request, response) => {
      const url = new URL(request.path, 'http://x');
      const page = Number(url.searchParams.get('page') ?? '1');
      const size = Number(url.searchParams.get('per_page') ?? '2');
      sendJson(response, 200, { items: all.slice((page - 1) * size, page * size) });
    });
    const two = await runtime.invoke('widgets_list', { max_pages: 2 });
    expect(two).toMatchObject({ ok: true, truncated: true, fields: { count: 4, next_page: 3 } });
    expect((two as { narrow?: string }).narrow).toContain('page');
    expect(server.seen.map((request) => request.path)).toEqual([
      '/widgets?per_page=2',
      '/widgets?page=2&per_page=2',
    ]);

    server.seen.length = 0;
    const rest = await runtime.invoke('widgets_list', { page: 3, max_pages: 5 });
    expect(rest).toMatchObject({ ok: true, fields: { count: 1, items: [{ id: 'W-005' }] } });
    expect((rest as { truncated?: boolean }).truncated).toBeUndefined();

    const unbounded = await runtime.invoke('widgets_list', { max_pages: 500 });
    expect(unbounded).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
  });
});
