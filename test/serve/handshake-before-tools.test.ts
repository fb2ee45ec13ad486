import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LIFT } from './support.js';

const ROOT = join(import.meta.dirname, '..', '..');
const INDEX = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;
const ZOD = pathToFileURL(join(ROOT, 'node_modules', 'zod', 'index.js')).href;

/**
 * `lift serve --stdio` answers the MCP handshake before its tool modules load (they are most of
 * a start), and holds tools/list until every tool is there: a client never sees a partial list.
 * A tools module that takes 1.5 s to load, and leaves a mark when it has, shows the order.
 */
describe('lift serve answers the handshake while its tools load', () => {
  let cwd: string;
  let child: ChildProcessWithoutNullStreams | undefined;

  afterEach(() => {
    child?.kill('SIGKILL');
    child = undefined;
    rmSync(cwd, { recursive: true, force: true });
  });

  function workspace(moduleSource: string): { marker: string } {
    cwd = mkdtempSync(join(tmpdir(), 'lift-handshake-'));
    const marker = join(cwd, 'loaded.mark');
    writeFileSync(join(cwd, 'slow-tools.mjs'), moduleSource.replaceAll('MARKER', JSON.stringify(marker)));
    writeFileSync(join(cwd, 'lift.config.json'), JSON.stringify({ tools: ['slow-tools.mjs'] }));
    return { marker };
  }

  interface Served {
    /** The answer to the request with this id, and whether the marker existed when it came. */
    answer(id: number): Promise<{ message: Record<string, unknown>; markerThen: boolean }>;
    exited: Promise<{ code: number | null; stderr: string }>;
  }

  function serve(marker: string): Served {
    const process_ = spawn(process.execPath, [LIFT, 'serve', '--stdio'], {
      cwd,
      env: { ...process.env, LIFT_HOME: join(cwd, '.lift') },
    });
    child = process_;
    let stdout = '';
    let stderr = '';
    const waiting = new Map<
      number,
      (value: { message: Record<string, unknown>; markerThen: boolean }) => void
    >();
    process_.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      for (const line of lines) {
        const message = JSON.parse(line) as Record<string, unknown>;
        waiting.get(message.id as number)?.({ message, markerThen: existsSync(marker) });
      }
    });
    process_.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
      process_.once('close', (code) => resolve({ code, stderr })),
    );
    const send = (message: object) => process_.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    return {
      answer: (id) => new Promise((resolve) => waiting.set(id, resolve)),
      exited,
    };
  }

  it('answers initialize before a slow tools module has loaded, and lists its tool once it has', async () => {
    const { marker } = workspace(`
import { writeFileSync } from 'node:fs';
import { z } from '${ZOD}';
import { defineTool } from '${INDEX}';
await new Promise((resolve) => setTimeout(resolve, 1500));
writeFileSync(MARKER, 'loaded');
export const tools = [defineTool({
  name: 'slow_read', description: 'Reads nothing, from a module that takes a while to load.', rung: 'api',
  input: z.strictObject({}), output: z.object({}), effect: { class: 'read' },
  timeout: { deadlineMs: 2000 }, example: {}, run: async () => ({ fields: {}, summary: 'Read.' }),
})];
`);
    const served = serve(marker);
    const initialize = await served.answer(1);
    expect(initialize.message.result).toMatchObject({ serverInfo: { name: 'lift' } });
    expect(initialize.markerThen).toBe(false);

    const listed = await served.answer(2);
    expect(listed.markerThen).toBe(true);
    const names = (listed.message.result as { tools: Array<{ name: string }> }).tools.map(
      (tool) => tool.name,
    );
    expect(names).toContain('slow_read');
    expect(names).toContain('approval_status');
    expect(names).toContain('build_workbook');
  }, 30_000);

  it('ends with the load failure when a tools module cannot load, and never lists a partial set', async () => {
    const { marker } = workspace(`
await new Promise((resolve) => setTimeout(resolve, 500));
throw new Error('slow-tools.mjs is broken on purpose');
`);
    const served = serve(marker);
    const listed = Promise.race([served.answer(2), served.exited.then(() => undefined)]);
    const exited = await served.exited;
    expect(exited.code).toBe(1);
    expect(exited.stderr).toContain('slow-tools.mjs is broken on purpose');
    const answer = await listed;
    // Either the error came back for tools/list or the server closed first; a tool list never did.
    if (answer) expect(answer.message.result).toBeUndefined();
  }, 30_000);
});
