// Lift as a library: a tool over a real program (df), a Runtime, one invoke, and the same tool over MCP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createLiftServer, defineTool, Runtime, runWrapped } from 'lift';
import { z } from 'zod';

const FOLDER = { family: 'disk', what: 'the folder' };

const diskFree = defineTool({
  name: 'disk_free_read',
  description:
    'Reads the free space of the file system that holds a folder. Returns the free and total kilobytes.',
  rung: 'cli',
  input: z.strictObject({ folder: z.string().min(1).max(500) }),
  output: z.object({ free_kb: z.number(), total_kb: z.number() }),
  errors: { NOT_FOUND: { retry: 'no', hint: 'Give a folder that exists.' } },
  effect: { class: 'read' },
  timeout: { deadlineMs: 10_000 },
  paths: (input) => [{ path: input.folder, scope: FOLDER }],
  example: { folder: '.' },
  async run(input, ctx) {
    const folder = ctx.resolvePath(input.folder, FOLDER); // inside the allowed roots, links followed
    // No terminal, a deadline, prompt detection, and no process left behind.
    const result = await runWrapped({
      program: 'df',
      args: ['-Pk', folder],
      deadline: ctx.deadline,
      signal: ctx.signal,
    });
    const [, total = '0', , free = '0'] = result.stdout.head.trim().split('\n').at(-1)?.split(/\s+/) ?? [];
    return {
      fields: { free_kb: Number(free), total_kb: Number(total) },
      summary: `${free} KB free of ${total} KB`,
    };
  },
});

const home = mkdtempSync(join(tmpdir(), 'lift-library-'));
const runtime = new Runtime({ home, tools: [diskFree] });
const envelope = await runtime.invoke('disk_free_read', { folder: '.' });
console.log(envelope.ok ? envelope.summary : envelope);

// The same tool over MCP: here to an in-process client; serveStdio(runtime) serves it to any MCP client.
const { server } = await createLiftServer(runtime);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'example', version: '1.0.0' });
await client.connect(clientSide);
console.log((await client.listTools()).tools.map((tool) => tool.name).join(', '));
await client.close();
await runtime.close();
rmSync(home, { recursive: true, force: true });
