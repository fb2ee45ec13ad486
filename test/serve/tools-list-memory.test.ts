import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { createLiftServer, type LiftServer } from '../../src/serve/mcp-server.js';
import { tempDir } from '../support/temp.js';
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

describe('tools/list from memory, and tools the server hides', () => {
  const dir = tempDir();
  const runtime = new Runtime({ home: dir.path, tools: [noteRead, noteWait] });
  let built = 0;
  let lift: LiftServer;
  let client: Client;

  beforeAll(async () => {
    // Each build of the list reads the registry once: counting the reads counts the builds.
    const list = runtime.registry.list.bind(runtime.registry);
    runtime.registry.list = () => {
      built += 1;
      return list();
    };
    lift = createLiftServer(runtime, {
      hidden: (tool) =>
        tool.name === 'note_wait'
          ? { reason: 'not configured: no waiting room', enable: 'set settings.notes.room' }
          : undefined,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await lift.server.connect(serverSide);
    client = new Client({ name: 'memory', version: '1' });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client.close();
    lift.dispose();
    await runtime.close();
    dir.remove();
  });

  it('builds the list once and answers later requests from memory until the registry changes', async () => {
    const first = await client.listTools();
    const again = [await client.listTools(), await client.listTools()];
    expect(built).toBe(1);
    for (const answer of again) expect(answer).toEqual(first);
    expect(first.tools.map((tool) => tool.name)).toEqual(['approval_status', 'note_read']);

    runtime.registry.add(noteCount);
    const changed = await client.listTools();
    await client.listTools();
    expect(built).toBe(2);
    expect(changed.tools.map((tool) => tool.name)).toEqual(['approval_status', 'note_count', 'note_read']);
  });

  it('refuses a call of a hidden tool, saying why and what serves it', async () => {
    await expect(client.callTool({ name: 'note_wait', arguments: {} })).rejects.toThrow(
      "Tool 'note_wait' is not served here: not configured: no waiting room. The operator can serve it: set settings.notes.room.",
    );
  });

  it('names only the served tools when a name is unknown', async () => {
    const message = await client.callTool({ name: 'note_nope', arguments: {} }).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(message).toMatch(/Unknown tool 'note_nope'\. Available tools: .*note_read.*approval_status\.$/);
    expect(message).not.toContain('note_wait');
  });
});
