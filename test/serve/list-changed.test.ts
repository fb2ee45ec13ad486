import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { type HttpServing, serveHttp } from '../../src/serve/http.js';
import { noteRead, noteWait } from './fixtures/tools.js';

const noteCount = defineTool({
  name: 'note_count',
  description: 'Counts the notes; a capability that arrives while the server runs. Changes nothing.',
  rung: 'script',
  input: z.strictObject({}),
  output: z.object({ count: z.number() }),
  effect: { class: 'read' },
  timeout: { deadlineMs: 2_000 },
  example: {},
  run: async () => ({ fields: { count: 7 }, summary: 'Counted 7 notes.' }),
});

describe('the tool list follows the registry live', () => {
  const home = mkdtempSync(join(tmpdir(), 'lift-serve-live-'));
  const runtime = new Runtime({ home, tools: [noteRead, noteWait] });
  let serving: HttpServing;
  let client: Client;
  let changes = 0;

  beforeAll(async () => {
    serving = await serveHttp(runtime, { port: 0, token: 'live-token-123' });
    client = new Client({ name: 'live', version: '1' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serving.url), {
        requestInit: { headers: { authorization: 'Bearer live-token-123' } },
      }),
    );
  }, 30_000);

  afterAll(async () => {
    await client.close();
    await serving.close();
    await runtime.close();
    rmSync(home, { recursive: true, force: true });
  });

  async function until(check: () => boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('no tools/list_changed in 10 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('sends tools/list_changed when a capability is added, and lists and calls it', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'approval_status',
      'note_read',
      'note_wait',
    ]);
    runtime.registry.add(noteCount);
    await until(() => changes === 1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'approval_status',
      'note_count',
      'note_read',
      'note_wait',
    ]);
    const result = await client.callTool({ name: 'note_count', arguments: {} });
    expect(result.structuredContent).toMatchObject({ ok: true, fields: { count: 7 } });
  });

  it('sends tools/list_changed when a capability is disabled, and the tool is gone', async () => {
    const before = changes;
    runtime.registry.remove('note_count');
    await until(() => changes === before + 1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'approval_status',
      'note_read',
      'note_wait',
    ]);
    await expect(client.callTool({ name: 'note_count', arguments: {} })).rejects.toThrow(
      /Unknown tool 'note_count'/,
    );
  });

  it('tells the client once about a batch of changes', async () => {
    const before = changes;
    runtime.registry.add(noteCount);
    runtime.registry.remove('note_count');
    runtime.registry.add(noteCount);
    await until(() => changes > before);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(changes).toBe(before + 1);
  });
});
