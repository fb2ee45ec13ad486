import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toMcpTools } from '../../src/serve/to-mcp-tools.js';
import { LIFT, servedTools, workspace } from './support.js';

/** The MCP Inspector (node_modules/.bin/mcp-inspector) in CLI mode: a client no one on this project wrote. */
const INSPECTOR = join(
  import.meta.dirname,
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'cli',
  'build',
  'cli.js',
);

const ws = workspace();
afterAll(() => ws.remove());

function inspect(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [INSPECTOR, '--cli', '-e', `LIFT_HOME=${ws.home}`, process.execPath, LIFT, 'serve', '--stdio', ...args],
      {
        cwd: ws.cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the inspector did not finish in 100 s\n${stderr}`));
    }, 100_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`the inspector exited with ${code}\n${stderr}\n${stdout}`));
      resolve(JSON.parse(stdout) as Record<string, unknown>);
    });
  });
}

describe('@modelcontextprotocol/inspector --cli against lift serve --stdio', () => {
  it('lists the tools with the schemas and annotations of their contracts', async () => {
    const listed = (await inspect(['--method', 'tools/list'])) as { tools: Array<Record<string, unknown>> };
    const expected = toMcpTools(await servedTools());
    expect(listed.tools.map((tool) => tool.name)).toEqual(expected.map((tool) => tool.name));
    for (const contract of expected) {
      const tool = listed.tools.find((candidate) => candidate.name === contract.name);
      expect(tool).toMatchObject({ inputSchema: contract?.inputSchema, annotations: contract?.annotations });
    }
  }, 120_000);

  it('calls a read and gets the envelope back', async () => {
    const result = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'note_read',
      '--tool-arg',
      'id=N-005',
    ]);
    expect(result).toMatchObject({
      isError: false,
      structuredContent: { ok: true, tool: 'note_read', fields: { id: 'N-005', text: 'note N-005' } },
      content: [
        { type: 'text', text: 'ok: Read N-005.' },
        { type: 'text', text: expect.stringContaining('"fields":{"id":"N-005","text":"note N-005"}') },
      ],
    });
  }, 120_000);
});
