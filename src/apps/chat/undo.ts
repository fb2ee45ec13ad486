import { z } from 'zod';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { parseHandle, UndoHandleSchema } from './handle.js';
import { ChatAddress } from './post.js';
import { chatSettings, type ResolvedChatSettings } from './settings.js';

const Input = z.strictObject({
  undo: UndoHandleSchema.describe('The undo handle chat_post returned'),
  reason: z.string().min(1).max(500).default('Posted in error').describe('Shown in a correction.'),
  request_id: RequestIdSchema,
});

export type ChatUndoInput = z.infer<typeof Input>;

const Output = z.object({
  to: ChatAddress,
  message_id: z.string().describe('The post taken back.'),
  method: z.enum(['retracted', 'corrected']).describe('corrected: its text was replaced.'),
  how: z.string().describe('The protocol used, e.g. XEP-0424 retraction.'),
  notice_id: z.string().optional().describe('The archive id of the correction or retraction notice'),
  file_note: z.string().optional().describe('Where a shared file stays until the server expires it.'),
});

/** chat_undo: takes a post back, by retraction where the service supports it, else by a correction. */
export function chatUndo(given: ResolvedChatSettings | undefined): AnyTool {
  return defineTool({
    name: 'chat_undo',
    title: 'Take back a chat post',
    description:
      'Takes back a post chat_post made, by its undo handle: retracts it where the room supports retraction (the archive keeps a tombstone), else posts a correction that replaces its text. Returns which it did (method, how) and the archive id of the notice, read back from the archive.',
    group: 'chat',
    rung: 'api',
    input: Input,
    output: Output,
    verifiedBy: "the room's message archive: a tombstone, or the correction by the server's id",
    errors: {
      NOT_FOUND: { hint: 'The message is not in the archive (expired, or the handle is for another room).' },
      APPROVAL_STALE: {
        hint: 'The message changed after the yes (someone retracted it already); read chat_history.',
      },
      UPSTREAM_ERROR: {
        retry: 'after_check',
        hint: 'The chat server failed; settle with chat_history before any retry.',
      },
    },
    effect: { class: 'visible', gate: 'review', repeat: 'The same request_id returns the first undo.' },
    timeout: {
      deadlineMs: given?.deadlineMs ?? 60_000,
      settle:
        "chat_history with the post's to and message_id set to the post's message_id: a tombstone or a correction means it was undone",
    },
    session: { secret: 'chat_password', onExpiry: 'AUTH_REQUIRED; a person stores the new password.' },
    example: {
      undo: 'chat-undo:room:team@conference.example.org:6f1c2a9e:post-weekly-0001',
      request_id: 'undo-weekly-0001',
    },
    preview: async (input, ctx) => {
      // The chat client and the archive work load when a post is first taken back.
      const { originalOf, withdrawal } = await import('./withdraw.js');
      const { sha256 } = await import('./upload.js');
      const settings = await chatSettings(ctx, given);
      const handle = parseHandle(input.undo);
      const original = await originalOf(ctx, settings, handle);
      const text = [
        `Take back message ${handle.messageId} in ${handle.to} (retract it where the room allows, else correct it to "${withdrawal(input.reason)}"):`,
        `  | ${(original.body ?? '(no text)').split('\n').slice(0, 4).join('\n  | ')}`,
      ].join('\n');
      return {
        text,
        digest: sha256(Buffer.from(JSON.stringify([original.id, original.body ?? null, original.retracted]))),
      };
    },
    run: async (input, ctx) => {
      const { originalOf, undo, undoChecks } = await import('./withdraw.js');
      const { withChat } = await import('./session.js');
      const { sha256 } = await import('./upload.js');
      const settings = await chatSettings(ctx, given);
      const handle = parseHandle(input.undo);
      const original = await originalOf(ctx, settings, handle);
      if (
        sha256(Buffer.from(JSON.stringify([original.id, original.body ?? null, original.retracted]))) !==
        ctx.approval?.digest
      ) {
        throw new LiftError(
          'APPROVAL_STALE',
          `Message ${handle.messageId} changed after the approval; nothing was done.`,
          { outcome: 'not_started' },
        );
      }
      ctx.markStarted();
      const done = await withChat(ctx, settings, (session) => undo(session, settings, handle, input));
      const fields = {
        to: handle.to,
        message_id: handle.messageId,
        method: done.method,
        how: done.how,
        ...(done.noticeId ? { notice_id: done.noticeId } : {}),
        ...(original.url
          ? { file_note: `The uploaded file stays at ${original.url} until the server expires it.` }
          : {}),
      };
      ctx.emit({
        type: 'audit-recorded',
        effect: 'chat_undone',
        approval_id: ctx.approval?.id,
        approved_by: ctx.approval?.by,
        ...fields,
      });
      return {
        fields,
        checks: undoChecks(handle, done),
        summary: `${done.method === 'retracted' ? 'Retracted' : 'Corrected'} message ${handle.messageId} in ${handle.to} (${done.how}).`,
        verifiedBy: 'MAM archive read back (rung 1)',
      };
    },
  });
}
