/**
 * `lift serve --queue`: a real MCP client over stdio calls tools on a server that runs none
 * of them itself; each call is a job on the shared queue, run by a real `lift worker`, and
 * the client gets the worker's envelope. The job is named by the request id (a call sent
 * twice posts once), and a call held for a person is released to the workers once, however
 * many approve it (the MCP client when asked, `lift approve` at the same time).
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectHttp,
  connectStdio,
  type HttpServer,
  startHttp,
  TOKEN,
  type Workspace,
} from '../serve/support.js';
import { lift } from '../support/cli.js';
import { type SharedPostgres, startSharedPostgres } from '../support/postgres-server.js';
import { tempDir } from '../support/temp.js';
import { postsOf, writerOf } from './queue-tools.js';
import { startWorker, stopWorkers } from './worker-process.js';

const dir = tempDir('lift-serve-queue-');
const posts = join(dir.path, 'posts.log');
let server: SharedPostgres;
let worker: ChildProcess;
const workers: ChildProcess[] = [];
const clients: Client[] = [];
const servers: HttpServer[] = [];

function env(home: string): Record<string, string> {
  return { LIFT_HOME: join(dir.path, home), LIFT_TEST_POSTS: posts, LIFT_POSTGRES_URL: server.url() };
}

/** The server's workspace: its own home, the shared store, the posts file, the HTTP token. */
function serverSide(): Workspace {
  return {
    cwd: dir.path,
    home: join(dir.path, 'server'),
    env: { ...env('server'), LIFT_SECRET_SERVE_TOKEN: TOKEN },
    remove: () => undefined,
  };
}

/** `lift serve --stdio --queue`, with the SDK's client connected to it; `onElicit` runs before it says yes. */
async function connect(onElicit?: () => Promise<void>): Promise<Client> {
  const client = await connectStdio(
    serverSide(),
    onElicit
      ? async () => {
          await onElicit();
          return { action: 'accept', content: { approve: true } };
        }
      : undefined,
    ['--queue'],
  );
  clients.push(client);
  return client;
}

function envelopeOf(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  return result.structuredContent as Record<string, unknown>;
}

beforeAll(async () => {
  server = await startSharedPostgres();
  const tools = join(import.meta.dirname, 'queue-tools.ts');
  writeFileSync(join(dir.path, 'lift.config.json'), JSON.stringify({ tools: [tools] }));
  writeFileSync(posts, '');
  worker = await startWorker({ cwd: dir.path, env: env('host-a'), label: 'host-a' });
  workers.push(worker);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await Promise.all(servers.map((each) => each.stop()));
  await stopWorkers(workers);
  server?.stop();
  dir.remove();
});

describe('lift serve --queue', () => {
  it("answers an MCP client with the worker's envelope, once per request id", async () => {
    const client = await connect();
    const call = () =>
      client.callTool(
        { name: 'post_write', arguments: { text: 'over mcp', request_id: 'mcp-1' } },
        undefined,
        { timeout: 90_000 },
      );
    const [first, second] = await Promise.all([call(), call()]);
    expect(first.isError, JSON.stringify(first)).toBe(false);
    // The worker ran it, not the server: its pid is in the envelope and on the post.
    expect(envelopeOf(first)).toMatchObject({ ok: true, fields: { pid: worker.pid } });
    expect(envelopeOf(second)).toMatchObject({ ok: true, fields: { pid: worker.pid } });
    expect(writerOf(posts, 'mcp-1')).toBe(worker.pid);
    const again = await call();
    expect(envelopeOf(again)).toMatchObject({ ok: true });
    expect(postsOf(posts, 'mcp-1')).toBe(1);
  }, 180_000);

  it('reports a bad input from the worker as a tool error, without a post', async () => {
    const client = clients[0] ?? (await connect());
    const result = await client.callTool(
      { name: 'post_write', arguments: { text: '', request_id: 'mcp-bad' } },
      undefined,
      { timeout: 90_000 },
    );
    expect(result.isError).toBe(true);
    expect(envelopeOf(result), JSON.stringify(result)).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT' },
    });
    expect(postsOf(posts, 'mcp-bad')).toBe(0);
  }, 180_000);

  it('releases a held call to the workers once when the MCP client and lift approve both say yes', async () => {
    let approved: Promise<Awaited<ReturnType<typeof lift>>> | undefined;
    // The person answers in the client and, at the same moment, on the command line.
    const client = await connect(async () => {
      // The held call is the only pending approval in the shared store.
      const listed = await lift(['approvals', '--json'], { cwd: dir.path, env: env('approver') });
      const held = (JSON.parse(listed.stdout) as Array<{ id: string; tool: string }>).find(
        (approval) => approval.tool === 'post_reviewed',
      );
      approved = lift(['approve', held?.id ?? '', '--json'], {
        cwd: dir.path,
        env: env('approver'),
        timeoutMs: 90_000,
      });
    });
    const result = await client.callTool(
      { name: 'post_reviewed', arguments: { text: 'reviewed', request_id: 'mcp-held' } },
      undefined,
      { timeout: 120_000 },
    );
    expect(result.isError, JSON.stringify(result)).toBe(false);
    expect(envelopeOf(result)).toMatchObject({ ok: true, fields: { pid: worker.pid } });
    const cli = await approved;
    expect(cli?.code, cli?.stderr).toBe(0);
    expect(JSON.parse(cli?.stdout ?? '{}')).toMatchObject({ ok: true, fields: { pid: worker.pid } });
    expect(postsOf(posts, 'mcp-held')).toBe(1);
    expect(writerOf(posts, 'mcp-held')).toBe(worker.pid);
  }, 240_000);

  it('serves the queue over Streamable HTTP too', async () => {
    const http = await startHttp(serverSide(), ['--queue']);
    servers.push(http);
    const client = await connectHttp(http.url, TOKEN);
    clients.push(client);
    const result = await client.callTool(
      { name: 'post_write', arguments: { text: 'over http', request_id: 'http-1' } },
      undefined,
      { timeout: 90_000 },
    );
    expect(envelopeOf(result), JSON.stringify(result)).toMatchObject({
      ok: true,
      fields: { pid: worker.pid },
    });
    expect(postsOf(posts, 'http-1')).toBe(1);
  }, 180_000);
});
