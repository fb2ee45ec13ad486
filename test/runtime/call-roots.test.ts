/**
 * A caller's roots (an MCP client's) take the place of the runtime's default roots for its call,
 * for the calls that call makes, and for the held call once a person approves it, wherever it is
 * approved (issue 40). Families with roots of their own keep them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { changeHeld } from '../../src/console/approvals-page.js';
import { defineTool } from '../../src/contract/define-tool.js';
import { type Envelope, isPending } from '../../src/contract/envelope.js';
import type { PathScope } from '../../src/contract/paths.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { runJob } from '../../src/worker/run-job.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir('lift-call-roots-');
const work = join(dir.path, 'work');
const client = join(dir.path, 'client');
const stamps = join(dir.path, 'stamps');
for (const folder of [work, client, stamps]) mkdirSync(folder);
writeFileSync(join(work, 'note.txt'), 'work note');
writeFileSync(join(client, 'note.txt'), 'client note');
writeFileSync(join(stamps, 'note.txt'), 'stamps note');

const noteScope: PathScope = { family: 'notes', what: 'path' };
const Input = z.strictObject({ path: z.string(), request_id: z.string().optional() });
const Output = z.object({ text: z.string() });

const noteRead = defineTool({
  name: 'note_read_file',
  description: 'Reads a note file.',
  rung: 'file',
  input: Input,
  output: Output,
  effect: { class: 'read' },
  timeout: { deadlineMs: 10_000 },
  paths: (input) => [{ path: input.path, scope: noteScope }],
  run: async (input, ctx) => {
    const text = readFileSync(ctx.resolvePath(input.path, noteScope), 'utf8');
    return { fields: { text }, summary: text };
  },
});

/** Held for a person; reads the note through another tool once approved. */
const noteStamp = defineTool({
  name: 'note_stamp_file',
  description: 'Stamps a note file once a person approved it.',
  rung: 'file',
  input: Input,
  output: Output,
  effect: { class: 'visible' },
  timeout: { deadlineMs: 10_000 },
  paths: (input) => [{ path: input.path, scope: noteScope }],
  run: async (input, ctx) => {
    const read = await ctx.call('note_read_file', { path: input.path });
    if (!('fields' in read)) throw new Error(JSON.stringify(read));
    return { fields: { text: String(read.fields.text) }, summary: 'stamped' };
  },
});

/** A family whose roots are its own: the caller's roots do not replace them. */
const stampScope: PathScope = { family: 'stamps', what: 'path', roots: [stamps] };
const stampRead = defineTool({
  name: 'stamp_read_file',
  description: 'Reads a file of the stamps folder.',
  rung: 'file',
  input: Input,
  output: Output,
  effect: { class: 'read' },
  timeout: { deadlineMs: 10_000 },
  paths: (input) => [{ path: input.path, scope: stampScope }],
  run: async (input, ctx) => {
    const text = readFileSync(ctx.resolvePath(input.path, stampScope), 'utf8');
    return { fields: { text }, summary: text };
  },
});

const tools = [noteRead, noteStamp, stampRead];
const home = join(dir.path, 'home');
const runtime = new Runtime({ home, workingDir: work, tools });
afterAll(async () => {
  await runtime.close();
  dir.remove();
});

const code = (envelope: Envelope) => ('error' in envelope ? envelope.error.code : 'ok');

describe("a caller's roots", () => {
  it("replace the runtime's default roots for the call", async () => {
    const roots = [client];
    expect(
      await runtime.invoke('note_read_file', { path: join(client, 'note.txt') }, { roots }),
    ).toMatchObject({
      ok: true,
      fields: { text: 'client note' },
    });
    expect(code(await runtime.invoke('note_read_file', { path: join(work, 'note.txt') }, { roots }))).toBe(
      'BAD_INPUT',
    );
    expect(code(await runtime.invoke('note_read_file', { path: join(client, 'note.txt') }))).toBe(
      'BAD_INPUT',
    );
  });

  it('leave a family with roots of its own as it is', async () => {
    const envelope = await runtime.invoke(
      'stamp_read_file',
      { path: join(stamps, 'note.txt') },
      { roots: [client] },
    );
    expect(envelope).toMatchObject({ ok: true, fields: { text: 'stamps note' } });
  });

  it('go with a held call: approved in another runtime, it reaches the folders it was checked against', async () => {
    const held = await runtime.invoke(
      'note_stamp_file',
      { path: join(client, 'note.txt'), request_id: 'stamp-1' },
      { roots: [client] },
    );
    if (!isPending(held)) throw new Error(`expected a held call, got ${JSON.stringify(held)}`);
    // The approver runs from elsewhere: its own default root is its working folder.
    const approver = new Runtime({ home, workingDir: work, tools });
    try {
      const ran = await approver.approve(held.pending.approval_id);
      // The stamp reads the note through another call, which reaches the same folders.
      expect(ran, JSON.stringify(ran)).toMatchObject({ ok: true, fields: { text: 'client note' } });
    } finally {
      await approver.close();
    }
  });

  it('go with a held call a person changes in the console: the changed call is checked against them', async () => {
    const held = await runtime.invoke(
      'note_stamp_file',
      { path: join(client, 'note.txt'), request_id: 'stamp-2' },
      { roots: [client] },
    );
    if (!isPending(held)) throw new Error(`expected a held call, got ${JSON.stringify(held)}`);
    // The console runs from elsewhere: its own default root is its working folder.
    const inConsole = new Runtime({ home, workingDir: work, tools });
    try {
      const said = await changeHeld(
        inConsole,
        held.pending.approval_id,
        JSON.stringify({ path: join(client, 'note.txt'), request_id: 'stamp-2' }),
      );
      expect(said).toContain('the changed call is held as');
      const replacement = (await inConsole.store.approvals.get(held.pending.approval_id))?.replacedBy;
      expect(replacement).toBeDefined();
      expect(await inConsole.approve(replacement!)).toMatchObject({
        ok: true,
        fields: { text: 'client note' },
      });
    } finally {
      await inConsole.close();
    }
  });

  it('go with a queued call: the worker checks it against them, not its own', async () => {
    const job = (roots?: string[]) =>
      runJob(
        runtime,
        {
          kind: 'call',
          request_id: `read-${roots ? 'client' : 'worker'}`,
          tool: 'note_read_file',
          input: { path: join(client, 'note.txt') },
          ...(roots ? { roots } : {}),
        },
        0,
        new AbortController().signal,
      );
    const withRoots = await job([client]);
    expect(withRoots).toMatchObject({ kind: 'done', output: { envelope: { ok: true } } });
    const without = await job();
    expect(without).toMatchObject({ kind: 'done', output: { envelope: { error: { code: 'BAD_INPUT' } } } });
  });
});
