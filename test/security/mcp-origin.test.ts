import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServer, startHttp, TOKEN, type Workspace, workspace } from '../serve/support.js';

const CONSOLE = 'http://localhost:5173';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
};

function post(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(INITIALIZE),
  });
}

async function jsonRpcError(response: Response): Promise<{ code: number; message: string }> {
  expect(response.headers.get('content-type')).toContain('application/json');
  const body = (await response.json()) as {
    jsonrpc: string;
    id: unknown;
    error: { code: number; message: string };
  };
  expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
  return body.error;
}

/** The SDK's own client, sending the headers a page in a browser would add. */
async function sdkClient(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'lift-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }), {
    timeout: 60_000,
  });
  return client;
}

describe('lift serve --http checks Origin against DNS rebinding', () => {
  let ws: Workspace;
  let server: HttpServer;

  beforeAll(async () => {
    ws = workspace({ token: true });
    server = await startHttp(ws, ['--allow-origin', CONSOLE]);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    ws.remove();
  });

  it('refuses another site with 403 and a JSON-RPC error, token or not, and opens no session', async () => {
    for (const headers of [
      { origin: 'http://attacker.example', authorization: `Bearer ${TOKEN}` },
      { origin: 'http://attacker.example' },
      { origin: 'null', authorization: `Bearer ${TOKEN}` },
      { origin: 'http://localhost:5174', authorization: `Bearer ${TOKEN}` },
    ]) {
      const response = await post(server.url, headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect((await jsonRpcError(response)).message).toMatch(/^Forbidden/);
      expect(response.headers.get('mcp-session-id')).toBeNull();
    }
    const runs = join(ws.home, 'runs');
    expect(existsSync(runs) ? readdirSync(runs) : []).toEqual([]);
  });

  it('refuses the SDK client when it carries a foreign Origin', async () => {
    await expect(
      sdkClient(server.url, { authorization: `Bearer ${TOKEN}`, origin: 'http://rebound.example:8080' }),
    ).rejects.toMatchObject({ code: 403, message: expect.stringContaining('Forbidden') });
  });

  it('serves clients without an Origin and the allowed origin', async () => {
    const withoutOrigin = await sdkClient(server.url, { authorization: `Bearer ${TOKEN}` });
    const fromConsole = await sdkClient(server.url, { authorization: `Bearer ${TOKEN}`, origin: CONSOLE });
    try {
      expect((await withoutOrigin.listTools()).tools.length).toBeGreaterThan(0);
      expect((await fromConsole.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await withoutOrigin.close();
      await fromConsole.close();
    }
  });

  it('answers a wrong token, like a missing one, with 401, WWW-Authenticate and a JSON-RPC error', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: `Basic ${TOKEN}` },
    ]) {
      const response = await post(server.url, { ...headers, origin: CONSOLE });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="lift"');
      const error = await jsonRpcError(response);
      expect(error.message).toMatch(/^Unauthorized/);
      expect(error.message).not.toContain(TOKEN);
    }
  });
});
