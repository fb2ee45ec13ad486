import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.js';
import { isError, isPending, isSuccess } from '../../src/contract/envelope.js';
import { LiftError } from '../../src/contract/errors.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir('lift-preview-');
const note = join(dir.path, 'note.txt');
const sent: string[] = [];

const digestOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** Publishes a file's text; the person approves the text as it is on disk, not what the caller said. */
const publish = defineTool({
  name: 'note_publish',
  description: 'Publishes the note file.',
  rung: 'file',
  input: z.strictObject({ path: z.string().min(1).max(4_096), request_id: z.string().min(8).max(64) }),
  output: z.object({ text: z.string(), approved_by: z.string() }),
  effect: { class: 'irreversible' },
  timeout: { deadlineMs: 5_000 },
  errors: { NOT_FOUND: { hint: 'Write the note first.' } },
  preview: async (input, ctx) => {
    expect(ctx.approval).toBeUndefined();
    let text: string;
    try {
      text = readFileSync(input.path, 'utf8');
    } catch {
      throw new LiftError('NOT_FOUND', `No note at ${input.path}.`);
    }
    return { text: `Publish: ${text}`, digest: digestOf(text) };
  },
  run: async (input, ctx) => {
    const text = readFileSync(input.path, 'utf8');
    if (digestOf(text) !== ctx.approval?.digest) {
      throw new LiftError('APPROVAL_STALE', 'The note changed after the approval.', {
        outcome: 'not_started',
      });
    }
    sent.push(text);
    return { fields: { text, approved_by: ctx.approval.by }, summary: 'Published.' };
  },
});

const runtime = new Runtime({ home: join(dir.path, 'home'), tools: [publish] });
afterAll(async () => {
  await runtime.close();
  dir.remove();
});

describe('a preview read from the system', () => {
  it('shows what is on disk, stores its digest with the approval, and tells the run who said yes', async () => {
    writeFileSync(note, 'first text');
    const held = await runtime.invoke('note_publish', { path: note, request_id: 'publish-0001' });
    if (!isPending(held)) throw new Error(JSON.stringify(held));
    expect(held.pending.preview).toBe('Publish: first text');
    const approval = await runtime.store.approvals.get(held.pending.approval_id);
    expect(approval?.digest).toBe(digestOf('first text'));

    const done = await runtime.approve(held.pending.approval_id, {
      by: 'ana',
      phrase: held.pending.confirmation_phrase!,
    });
    if (!isSuccess(done)) throw new Error(JSON.stringify(done));
    expect(done.fields).toEqual({ text: 'first text', approved_by: 'ana' });
  });

  it('lets the run refuse when the system changed after the yes', async () => {
    writeFileSync(note, 'second text');
    const held = await runtime.invoke('note_publish', { path: note, request_id: 'publish-0002' });
    if (!isPending(held)) throw new Error(JSON.stringify(held));
    writeFileSync(note, 'changed behind the approver');
    const refused = await runtime.approve(held.pending.approval_id, {
      phrase: held.pending.confirmation_phrase!,
    });
    expect(isError(refused) && refused.error.code).toBe('APPROVAL_STALE');
    expect(sent).not.toContain('changed behind the approver');
  });

  it('fails the call instead of holding it when the read fails', async () => {
    const failed = await runtime.invoke('note_publish', {
      path: join(dir.path, 'missing.txt'),
      request_id: 'publish-0003',
    });
    if (!isError(failed)) throw new Error(JSON.stringify(failed));
    expect(failed.error).toMatchObject({
      code: 'NOT_FOUND',
      outcome: 'not_started',
      hint: 'Write the note first.',
    });
    expect(await runtime.store.approvals.list(['pending'])).toHaveLength(0);
  });
});
