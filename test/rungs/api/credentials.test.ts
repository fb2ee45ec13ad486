import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';
import { sendJson, startTestServer, type TestServer } from './http-server.js';
import { type Scheme, widget, widgetTools } from './widgets.js';

const CANARY = 'canary-7f3a9c1e-do-not-leak';

/** Every file Lift wrote under its home, as text (the database included). */
function everythingWritten(home: string): string {
  const texts: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name !== 'secrets.json') texts.push(readFileSync(path).toString('latin1'));
    }
  };
  walk(home);
  return texts.join('\n');
}

const CASES: Array<{ scheme: Scheme; secret: string; check: (headers: Record<string, unknown>) => boolean }> =
  [
    {
      scheme: { type: 'http', scheme: 'bearer' },
      secret: CANARY,
      check: (headers) => headers.authorization === `Bearer ${CANARY}`,
    },
    {
      scheme: { type: 'http', scheme: 'basic' },
      secret: `operator:${CANARY}`,
      check: (headers) =>
        headers.authorization === `Basic ${Buffer.from(`operator:${CANARY}`).toString('base64')}`,
    },
    {
      scheme: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      secret: CANARY,
      check: (headers) => headers['x-api-key'] === CANARY,
    },
    {
      scheme: { type: 'apiKey', in: 'cookie', name: 'session' },
      secret: CANARY,
      check: (headers) => headers.cookie === `session=${CANARY}`,
    },
  ];

describe.each(CASES)('credentials: $scheme.type $scheme.scheme $scheme.in', ({ scheme, secret, check }) => {
  let server: TestServer;
  const home = tempDir();
  let runtime: Runtime;
  const envelopes: Envelope[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    runtime = new Runtime({
      home: home.path,
      env: { LIFT_SECRET_WIDGETS_MAIN: secret },
      tools: widgetTools(server.url, scheme),
    });
  });
  afterAll(async () => {
    await runtime.close();
    await server.close();
    home.remove();
  });

  it('sends the credential from the secret store on every call', async () => {
    server.handle((request, response) => {
      if (!check(request.headers)) return sendJson(response, 401, { message: 'who are you?' });
      sendJson(response, 200, widget());
    });
    const envelope = await runtime.invoke('widget_get', { id: 'W-001' });
    envelopes.push(envelope);
    expect(envelope.ok).toBe(true);
  });

  it('keeps the credential out of envelopes, errors and logs, even when the server echoes it', async () => {
    server.handle((request, response) =>
      sendJson(response, 400, {
        message: `bad header ${String(request.headers.authorization ?? request.headers['x-api-key'] ?? request.headers.cookie)} ${CANARY}`,
      }),
    );
    const bad = await runtime.invoke('widget_get', { id: 'W-001' });
    envelopes.push(bad);
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    server.handle((_, response) => sendJson(response, 200, { ...widget(), name: CANARY }));
    envelopes.push(await runtime.invoke('widget_get', { id: 'W-001' }));
    server.handle((_, response) => sendJson(response, 401, {}));
    const refused = await runtime.invoke('widget_get', { id: 'W-001' });
    envelopes.push(refused);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'AUTH_REQUIRED', hint: expect.stringContaining('widgets_main') },
    });
    for (const envelope of envelopes) expect(JSON.stringify(envelope)).not.toContain(CANARY);
    expect(everythingWritten(home.path)).not.toContain(CANARY);
  });
});

describe('credentials: absent from the store', () => {
  it('returns AUTH_REQUIRED before any request is sent', async () => {
    const server = await startTestServer();
    const home = tempDir();
    const runtime = new Runtime({
      home: home.path,
      tools: widgetTools(server.url, { type: 'http', scheme: 'bearer' }),
    });
    try {
      const envelope = await runtime.invoke('widget_get', { id: 'W-001' });
      expect(envelope).toMatchObject({ ok: false, error: { code: 'AUTH_REQUIRED', outcome: 'not_started' } });
      expect(server.seen).toHaveLength(0);
    } finally {
      await runtime.close();
      await server.close();
      home.remove();
    }
  });
});
