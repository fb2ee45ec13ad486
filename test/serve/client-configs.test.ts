import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';
import { startHttp, TOKEN, workspace } from './support.js';

/**
 * The README's configuration snippets for Claude Desktop, VS Code and Cursor, read from the
 * README itself and run as each client would: the stdio ones start the command they name (from
 * `/`, as Claude Desktop does), the HTTP ones reach a running `lift serve --http` with the
 * header they give, its variables filled in the client's way. Each answers initialize and
 * tools/list; the stdio ones name a root, which their path tools reach (and nothing outside it).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PROJECT_PLACEHOLDER = '/path/to/project';
const PORT_IN_README = 8765;

interface ServerEntry {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}

interface Snippet {
  client: string;
  entry: ServerEntry;
}

/** Every server entry of every JSON block under "## Connect an MCP client", by client (### heading). */
function snippets(readme: string): Snippet[] {
  const section = readme.split('\n## Connect an MCP client\n')[1]?.split('\n## ')[0] ?? '';
  const found: Snippet[] = [];
  for (const part of section.split('\n### ').slice(1)) {
    const client = part.split('\n')[0]?.trim() ?? '';
    for (const [, block = ''] of part.matchAll(/```json\n([\s\S]*?)```/g)) {
      const config = JSON.parse(block) as {
        mcpServers?: Record<string, ServerEntry>;
        servers?: Record<string, ServerEntry>;
      };
      for (const entry of Object.values(config.mcpServers ?? config.servers ?? {}))
        found.push({ client, entry });
    }
  }
  return found;
}

const transportOf = (entry: ServerEntry) => (entry.url === undefined ? 'stdio' : 'http');

/** What the client does with `${input:ID}` (asks the person) and `${env:NAME}` (its environment). */
function fillVariables(text: string, answers: Record<string, string>): string {
  return text.replace(/\$\{(?:input|env):([^}]+)\}/g, (whole, name: string) => answers[name] ?? whole);
}

const dir = tempDir('lift-client-configs-');
const project = join(dir.path, 'project');
mkdirSync(join(project, 'node_modules'), { recursive: true });
// The project as `npm install lift-*.tgz` leaves it: the package under node_modules/lift.
symlinkSync(ROOT, join(project, 'node_modules', 'lift'));

/** A git repository with one commit, for git_log_read to reach or not. */
function repository(path: string, subject: string): string {
  mkdirSync(path, { recursive: true });
  const git = (args: string[]) => execFileSync('git', ['-C', path, ...args], { stdio: 'ignore' });
  git(['init', '-q', '--initial-branch=main']);
  git(['-c', 'user.email=a@b.invalid', '-c', 'user.name=A', 'commit', '-q', '--allow-empty', '-m', subject]);
  return path;
}
const inProject = repository(join(project, 'stock'), 'Project count');
const outside = repository(join(dir.path, 'elsewhere'), 'Not for the model');
const ws = workspace({ token: true });
afterAll(() => {
  dir.remove();
  ws.remove();
});

const all = snippets(README);

describe('the README client configurations', () => {
  it('give Claude Desktop stdio, and VS Code and Cursor both stdio and HTTP with the bearer token', () => {
    expect(all.map(({ client, entry }) => `${client}: ${transportOf(entry)}`)).toEqual([
      'Claude Desktop: stdio',
      'VS Code: stdio',
      'VS Code: http',
      'Cursor: stdio',
      'Cursor: http',
    ]);
    for (const { entry } of all.filter(({ entry }) => transportOf(entry) === 'http'))
      expect(entry.headers?.Authorization).toMatch(/^Bearer \$\{(input|env):[^}]+\}$/);
  });

  it.each(all.filter(({ entry }) => transportOf(entry) === 'stdio'))(
    '$client over stdio starts the command it names, lists the tools, and reaches only the root it names',
    { timeout: 120_000 },
    async ({ entry }) => {
      const local = (text: string) => text.replaceAll(PROJECT_PLACEHOLDER, project);
      if (!entry.command) throw new Error('a stdio entry names a command');
      const transport = new StdioClientTransport({
        command: entry.command === 'node' ? process.execPath : entry.command,
        args: (entry.args ?? []).map(local),
        env: Object.fromEntries(Object.entries(entry.env ?? {}).map(([key, value]) => [key, local(value)])),
        cwd: '/',
        stderr: 'pipe',
      });
      const client = new Client({ name: 'readme-snippet', version: '1.0.0' });
      try {
        await client.connect(transport, { timeout: 90_000 });
        expect(client.getServerVersion()?.name).toBe('lift');
        const { tools } = await client.listTools(undefined, { timeout: 60_000 });
        expect(tools.map((tool) => tool.name)).toContain('inventory_find_items');
        expect(entry.args).toEqual(expect.arrayContaining(['--root', PROJECT_PLACEHOLDER]));
        const log = async (repo_path: string) =>
          (
            (await client.callTool({ name: 'git_log_read', arguments: { repo_path } }, undefined, {
              timeout: 60_000,
            })) as CallToolResult
          ).structuredContent as { ok: boolean; error?: { code: string } };
        expect(await log(inProject)).toMatchObject({ ok: true });
        expect((await log(outside)).error?.code).toBe('BAD_INPUT');
      } finally {
        await client.close();
      }
    },
  );

  it.each(all.filter(({ entry }) => transportOf(entry) === 'http'))(
    '$client over HTTP reaches a running lift serve --http with the bearer token and lists the tools',
    { timeout: 120_000 },
    async ({ entry }) => {
      const server = await startHttp(ws);
      const client = new Client({ name: 'readme-snippet', version: '1.0.0' });
      try {
        const port = new URL(server.url).port;
        const url = (entry.url ?? '').replace(`:${PORT_IN_README}/`, `:${port}/`);
        expect(url).toBe(server.url);
        const headers = Object.fromEntries(
          Object.entries(entry.headers ?? {}).map(([name, value]) => [
            name,
            fillVariables(value, { 'lift-token': TOKEN, LIFT_SERVE_TOKEN: TOKEN }),
          ]),
        );
        await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }), {
          timeout: 60_000,
        });
        const { tools } = await client.listTools(undefined, { timeout: 60_000 });
        expect(tools.map((tool) => tool.name)).toContain('inventory_find_items');
      } finally {
        await client.close();
        await server.stop();
      }
    },
  );
});
