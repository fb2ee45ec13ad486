/**
 * An MCP client's roots (roots/list, notifications/roots/list_changed) are the folders its calls'
 * paths reach, with the SDK's real client against the real `lift serve` (issue 40): started from
 * `/` as desktop clients start servers, over stdio, and over HTTP with one set of roots per session.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldersOf } from '../../src/serve/client-roots.js';
import { tempDir } from '../support/temp.js';
import { type HttpServer, LIFT, startHttp, TOKEN, type Workspace, workspace } from './support.js';

const dir = tempDir('lift-client-roots-');
const home = join(dir.path, 'home');
const left = join(dir.path, 'left');
const right = join(dir.path, 'right');

function repository(path: string, subject: string): string {
  mkdirSync(path, { recursive: true });
  const git = (args: string[]) => execFileSync('git', ['-C', path, ...args], { stdio: 'ignore' });
  git(['init', '-q', '--initial-branch=main']);
  git(['-c', 'user.email=a@b.invalid', '-c', 'user.name=A', 'commit', '-q', '--allow-empty', '-m', subject]);
  return path;
}
const leftRepo = repository(join(left, 'stock'), 'Left count');
const rightRepo = repository(join(right, 'books'), 'Right books');

/** A client that declares roots, answers roots/list with `folders.current`, and counts the asks. */
function rootsClient(folders: { current: string[] }) {
  const client = new Client(
    { name: 'roots-test', version: '1.0.0' },
    { capabilities: { roots: { listChanged: true } } },
  );
  const asked = { count: 0 };
  client.setRequestHandler(ListRootsRequestSchema, () => {
    asked.count++;
    return {
      roots: folders.current.map((folder) => ({ uri: pathToFileURL(folder).href, name: basename(folder) })),
    };
  });
  return { client, asked };
}

function parentEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('LIFT_')) env[key] = value;
  }
  return { ...env, LIFT_HOME: home };
}

/** `lift serve --stdio` started from `/`, as Claude Desktop and other desktop clients start it. */
async function connectFromRoot(client: Client, args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [LIFT, 'serve', '--stdio', ...args],
    cwd: '/',
    env: parentEnv(),
    stderr: 'pipe',
  });
  await client.connect(transport, { timeout: 60_000 });
  return client;
}

// biome-ignore lint/suspicious/noExplicitAny: assertions read envelopes field by field
type Envelope = Record<string, any>;

async function log(client: Client, repo_path: string): Promise<Envelope> {
  const result = (await client.callTool({ name: 'git_log_read', arguments: { repo_path } }, undefined, {
    timeout: 60_000,
  })) as CallToolResult;
  return result.structuredContent as Envelope;
}

const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  dir.remove();
});

describe('lift serve --stdio started from /', () => {
  it('a client without roots reaches no folder, and is told how to set one', {
    timeout: 120_000,
  }, async () => {
    const client = await connectFromRoot(new Client({ name: 'no-roots', version: '1.0.0' }));
    clients.push(client);
    const envelope = await log(client, leftRepo);
    expect(envelope.error?.code, JSON.stringify(envelope)).toBe('BAD_INPUT');
    expect(envelope.error.message).toContain('Lift was started from /, the whole disk');
    expect(envelope.error.hint).toContain("MCP client's roots");
    expect(JSON.stringify(envelope)).not.toContain('Left count');
  });

  it('a client that declares roots reaches those folders and no other', { timeout: 120_000 }, async () => {
    const { client, asked } = rootsClient({ current: [left] });
    clients.push(await connectFromRoot(client));
    expect(await log(client, leftRepo)).toMatchObject({
      ok: true,
      fields: { commits: [{ subject: 'Left count' }] },
    });
    const outside = await log(client, rightRepo);
    expect(outside.error?.code).toBe('BAD_INPUT');
    expect(outside.error.message).toContain(left);
    expect(JSON.stringify(outside)).not.toContain('Right books');
    // Asked once, on the first call, and kept until the client says the list changed.
    expect(asked.count).toBe(1);
  });

  it('notifications/roots/list_changed: the next call asks again and reaches the new roots', {
    timeout: 120_000,
  }, async () => {
    const folders = { current: [left] };
    const { client, asked } = rootsClient(folders);
    clients.push(await connectFromRoot(client));
    expect(await log(client, leftRepo)).toMatchObject({ ok: true });
    folders.current = [right];
    await client.sendRootsListChanged();
    // The notification and the next call travel in order on the one stream.
    expect(await log(client, rightRepo)).toMatchObject({
      ok: true,
      fields: { commits: [{ subject: 'Right books' }] },
    });
    expect((await log(client, leftRepo)).error?.code).toBe('BAD_INPUT');
    expect(asked.count).toBe(2);
  });

  it("the client's roots come before --root; a client without roots gets --root", {
    timeout: 120_000,
  }, async () => {
    const { client } = rootsClient({ current: [left] });
    clients.push(await connectFromRoot(client, ['--root', right]));
    expect(await log(client, leftRepo)).toMatchObject({ ok: true });
    expect((await log(client, rightRepo)).error?.code).toBe('BAD_INPUT');
    const plain = await connectFromRoot(new Client({ name: 'no-roots', version: '1.0.0' }), [
      '--root',
      right,
    ]);
    clients.push(plain);
    expect(await log(plain, rightRepo)).toMatchObject({ ok: true });
    expect((await log(plain, leftRepo)).error?.code).toBe('BAD_INPUT');
  });
});

describe('foldersOf', () => {
  it('keeps the local folders of a project, and no disk, system folder, shared folder or whole home', () => {
    const uris = ['/', '/etc', '/tmp', dir.path, left].map((folder) => pathToFileURL(folder).href);
    const roots = [...uris, 'file://otherhost/srv/x', 'https://example.com/'].map((uri) => ({ uri }));
    expect(foldersOf({ roots }, dir.path)).toEqual([left]);
  });

  it("a client that names / reaches no further than the server's roots", { timeout: 120_000 }, async () => {
    const { client } = rootsClient({ current: ['/'] });
    clients.push(await connectFromRoot(client, ['--root', right]));
    expect(await log(client, rightRepo)).toMatchObject({ ok: true });
    const outside = await log(client, leftRepo);
    expect(outside.error?.code, JSON.stringify(outside)).toBe('BAD_INPUT');
    expect(JSON.stringify(outside)).not.toContain('Left count');
  });
});

describe('lift serve --http', () => {
  let ws: Workspace;
  let server: HttpServer;
  beforeAll(async () => {
    ws = workspace({ token: true });
    server = await startHttp(ws);
  }, 120_000);
  afterAll(async () => {
    await server.stop();
    ws.remove();
  });

  async function connect(client: Client): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    await client.connect(transport, { timeout: 60_000 });
    clients.push(client);
    return client;
  }

  it("asks each session's client for its roots: each reaches its own folders only", {
    timeout: 120_000,
  }, async () => {
    const first = rootsClient({ current: [left] });
    const second = rootsClient({ current: [right] });
    await connect(first.client);
    await connect(second.client);
    const inWorkspace = repository(join(ws.cwd, 'own'), 'Workspace');
    expect(await log(first.client, leftRepo)).toMatchObject({ ok: true });
    expect(await log(second.client, rightRepo)).toMatchObject({ ok: true });
    expect((await log(first.client, rightRepo)).error?.code).toBe('BAD_INPUT');
    expect((await log(second.client, leftRepo)).error?.code).toBe('BAD_INPUT');
    // The client's roots take the place of the server's working folder.
    expect((await log(first.client, inWorkspace)).error?.code).toBe('BAD_INPUT');
    // A client without roots gets the server's: its working folder, a project's.
    const plain = await connect(new Client({ name: 'no-roots', version: '1.0.0' }));
    expect(await log(plain, inWorkspace)).toMatchObject({ ok: true });
  });
});
