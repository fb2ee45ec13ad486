import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMcpTools } from '../../src/serve/to-mcp-tools.js';
import {
  connectHttp,
  type HttpServer,
  runLift,
  servedTools,
  startHttp,
  TOKEN,
  type Workspace,
  workspace,
} from './support.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};
const CALL = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'note_wait', arguments: { marker: 'intruder', ms: 1 } },
};

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
}

/** A POST sent from a loopback address of the test's choosing (127.0.0.2 …), as another client. */
function postFrom(
  localAddress: string,
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text,
            ms: performance.now() - started,
          }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

function runFiles(ws: Workspace): string[] {
  const folder = join(ws.home, 'runs');
  return existsSync(folder) ? readdirSync(folder) : [];
}

describe('lift serve --http', () => {
  it('refuses to start without a bearer token in the secret store, and says how to store one', async () => {
    const ws = workspace();
    try {
      const ran = await runLift(ws, ['serve', '--http', '0']);
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain('refuses to start without a bearer token');
      expect(ran.stderr).toContain('lift secrets generate serve_token');
    } finally {
      ws.remove();
    }
  });

  describe('with the serve_token secret', () => {
    let ws: Workspace;
    let server: HttpServer;
    const clients: Client[] = [];

    beforeAll(async () => {
      ws = workspace({ token: true });
      server = await startHttp(ws);
    }, 120_000);

    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await server?.stop();
      ws.remove();
    });

    it('binds to loopback by default', () => {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    });

    it('answers 401 to a request without the token, or with another, and runs nothing', async () => {
      // From an address of its own: wrong tokens make their address wait, which is tested below.
      for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: TOKEN }]) {
        const initialize = await postFrom('127.0.0.9', server.url, JSON.stringify(INITIALIZE), headers);
        expect(initialize.status).toBe(401);
        expect(initialize.headers['www-authenticate']).toContain('Bearer');
        const called = await postFrom('127.0.0.9', server.url, JSON.stringify(CALL), {
          ...headers,
          'mcp-session-id': 'guess',
        });
        expect(called.status).toBe(401);
        expect(called.text).not.toContain(TOKEN);
      }
      expect(runFiles(ws)).toEqual([]);
      expect(existsSync(join(ws.home, 'out', 'note_wait', 'intruder.aborted'))).toBe(false);
    });

    it('answers 404 to a session it does not know', async () => {
      const response = await post(server.url, CALL, {
        authorization: `Bearer ${TOKEN}`,
        'mcp-session-id': 'no-such-session',
      });
      expect(response.status).toBe(404);
    });

    it('lists and calls tools for the SDK client over Streamable HTTP', async () => {
      const client = await connectHttp(server.url, TOKEN);
      clients.push(client);
      const { tools: listed } = await client.listTools();
      const served = toMcpTools(await servedTools());
      expect(listed.map((tool) => tool.name)).toEqual(served.map((tool) => tool.name));
      for (const contract of served) {
        const tool = listed.find((candidate) => candidate.name === contract.name)!;
        expect({ input: tool.inputSchema, output: tool.outputSchema, annotations: tool.annotations }).toEqual(
          {
            input: contract.inputSchema,
            output: contract.outputSchema,
            annotations: contract.annotations,
          },
        );
      }
      const read = (await client.callTool({
        name: 'note_read',
        arguments: { id: 'N-003' },
      })) as CallToolResult;
      expect(read.structuredContent).toMatchObject({ ok: true, fields: { id: 'N-003' } });
      const bad = (await client.callTool({ name: 'note_read', arguments: { id: 3 } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(bad.structuredContent).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    });

    it('asks the person through elicitation within the session and runs the held call on yes', async () => {
      const messages: string[] = [];
      const client = await connectHttp(server.url, TOKEN, (params) => {
        messages.push(params.message);
        return { action: 'accept', content: { approve: true } };
      });
      clients.push(client);
      await client.listTools();
      const result = (await client.callTool({
        name: 'note_publish',
        arguments: { request_id: 'req-http-1', text: 'Over HTTP' },
      })) as CallToolResult;
      expect(result.structuredContent).toMatchObject({ ok: true, fields: { board_id: 'B-req-http-1' } });
      expect(messages).toEqual([expect.stringContaining('Publish "Over HTTP" to the team board')]);
      expect(readFileSync(join(ws.home, 'out', 'note_publish', 'published.log'), 'utf8')).toContain(
        'req-http-1 Over HTTP',
      );
    });

    it('aborts the tool when the client cancels over HTTP', async () => {
      const client = await connectHttp(server.url, TOKEN);
      clients.push(client);
      const controller = new AbortController();
      const pending = client.callTool(
        { name: 'note_wait', arguments: { marker: 'http-cancel', ms: 900 } },
        undefined,
        { signal: controller.signal },
      );
      const started = join(ws.home, 'out', 'note_wait', 'http-cancel.started');
      const marker = join(ws.home, 'out', 'note_wait', 'http-cancel.aborted');
      // Cancelled once the tool runs: under load, a cancel sent 150 ms after the call went out
      // reached the server before the call itself, and the tool then ran to its end.
      const waitFor = async (done: () => boolean) => {
        for (const until = Date.now() + 10_000; !done() && Date.now() < until; )
          await new Promise((resolve) => setTimeout(resolve, 20));
      };
      await waitFor(() => existsSync(started));
      controller.abort('stop');
      await expect(pending).rejects.toThrow();
      await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8').length > 0);
      expect(readFileSync(marker, 'utf8')).toBe('CANCELLED');
    });

    it('makes an address that sent wrong tokens wait, unchecked, and never slows one that sent none', async () => {
      const initialize = JSON.stringify(INITIALIZE);
      const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
      // Three wrong tokens cost nothing; the fourth makes 127.0.0.2 wait a second.
      for (let guess = 0; guess < 4; guess++)
        expect((await postFrom('127.0.0.2', server.url, initialize, bearer(`guess-${guess}`))).status).toBe(
          401,
        );
      const waiting = await postFrom('127.0.0.2', server.url, initialize, bearer(TOKEN));
      expect(waiting.status).toBe(429);
      expect(waiting.headers['retry-after']).toBe('1');
      expect(JSON.parse(waiting.text).error.message).toMatch(/Too many wrong tokens from this address/);
      // Another client, on the same machine, is let in at once.
      const other = await postFrom('127.0.0.3', server.url, initialize, bearer(TOKEN));
      expect(other.status).toBe(200);
      expect(other.ms).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await postFrom('127.0.0.2', server.url, initialize, bearer(TOKEN))).status).toBe(200);
    });

    it("counts wrong tokens at the console's sign-in with the bearer check's, for the same address", async () => {
      const base = server.url.replace(/\/mcp$/, '');
      const host = new URL(base).host;
      const signIn = (token: string) =>
        postFrom('127.0.0.4', `${base}/console/login`, new URLSearchParams({ token }).toString(), {
          'content-type': 'application/x-www-form-urlencoded',
          origin: base,
          host,
        });
      for (let guess = 0; guess < 4; guess++) expect((await signIn(`guess-${guess}`)).status).toBe(401);
      const refused = await signIn(TOKEN);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.text).toContain('Too many wrong tokens from this address');
      expect(refused.headers['set-cookie']).toBeUndefined();
      const bearer = await postFrom('127.0.0.4', server.url, JSON.stringify(INITIALIZE), {
        authorization: `Bearer ${TOKEN}`,
      });
      expect(bearer.status).toBe(429);
    });

    it('never shows the token in anything it wrote', () => {
      for (const file of runFiles(ws))
        expect(readFileSync(join(ws.home, 'runs', file), 'utf8')).not.toContain(TOKEN);
    });
  });
});
