import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import type { Check } from '../../contract/envelope.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { type ArchivedMessage, CORRECT, FASTEN, MODERATE, RETRACT } from './archive.js';
import { archivedById, deliver, lastMessages, messageTo } from './deliver.js';
import { parseHandle, type UndoHandle, UndoHandleSchema } from './handle.js';
import { type ChatSession, withChat, xml } from './session.js';
import { chatSettings, type ResolvedChatSettings } from './settings.js';
import { discoInfo, joinRoom, type Target } from './target.js';
import { sha256 } from './upload.js';

const Input = z.strictObject({
  undo: UndoHandleSchema.describe('The undo handle chat_post returned'),
  reason: z.string().min(1).max(500).default('Posted in error'),
  request_id: RequestIdSchema,
});

const Output = z.object({
  to: z.string(),
  message_id: z.string(),
  method: z.enum(['retracted', 'corrected']),
  how: z.string(),
  notice_id: z.string().optional().describe('The archive id of the correction or retraction notice'),
  file_note: z.string().optional(),
});

/** Says XEP-0424 retraction of one's own message (the service names the feature). */
const RETRACT_FEATURES = ['urn:xmpp:message-retract:0', 'urn:xmpp:message-retract:1'];

const nickOf = (settings: ResolvedChatSettings) =>
  settings.account.nick ?? settings.account.jid.split('@')[0] ?? 'lift';

const withdrawal = (reason: string) => `(withdrawn: ${reason})`;

interface Undone {
  method: 'retracted' | 'corrected';
  how: string;
  noticeId?: string;
  after: ArchivedMessage | undefined;
  notice: ArchivedMessage | undefined;
}

async function targetOf(session: ChatSession, handle: UndoHandle): Promise<Target> {
  const features =
    handle.kind === 'room' ? (await discoInfo(session, handle.to)).features : new Set<string>();
  return { jid: handle.to, kind: handle.kind, name: undefined, features };
}

/** XEP-0425: a moderator asks the room to retract; the room replaces the archived message by a tombstone. */
async function moderate(
  session: ChatSession,
  target: Target,
  handle: UndoHandle,
  reason: string,
): Promise<Undone> {
  const request = xml(
    'apply-to',
    { xmlns: FASTEN, id: handle.messageId },
    xml('moderate', { xmlns: MODERATE }, xml('retract', { xmlns: RETRACT }), xml('reason', {}, reason)),
  );
  await session.iq('set', target.jid, request, `Retracting message ${handle.messageId}`);
  const after = await archivedById(session, target, handle.messageId);
  const notice = (await lastMessages(session, target, 20)).find(
    (message) => message.retracts === handle.messageId,
  );
  return {
    method: 'retracted',
    how: 'XEP-0425 moderation: the room keeps a tombstone',
    after,
    notice,
    ...(notice ? { noticeId: notice.id } : {}),
  };
}

/** XEP-0308: a correction that replaces the text, where the service offers no retraction. */
async function correct(
  session: ChatSession,
  target: Target,
  nick: string,
  handle: UndoHandle,
  input: z.infer<typeof Input>,
): Promise<Undone> {
  const children = [
    xml('body', {}, withdrawal(input.reason)),
    xml('replace', { xmlns: CORRECT, id: handle.clientId }),
  ];
  const noticeId = await deliver(session, target, nick, messageTo(target, input.request_id, children));
  const notice = await archivedById(session, target, noticeId);
  const after = await archivedById(session, target, handle.messageId);
  return {
    method: 'corrected',
    how: 'XEP-0308 correction: the room offers no retraction',
    noticeId,
    after,
    notice,
  };
}

/** XEP-0424: the sender retracts its own message, where the service says it supports that. */
async function retract(
  session: ChatSession,
  target: Target,
  nick: string,
  handle: UndoHandle,
  input: z.infer<typeof Input>,
): Promise<Undone> {
  const id = target.kind === 'room' ? handle.messageId : handle.clientId;
  const children = [
    xml('apply-to', { xmlns: FASTEN, id }, xml('retract', { xmlns: RETRACT })),
    xml('fallback', { xmlns: 'urn:xmpp:fallback:0' }),
    xml('body', {}, withdrawal(input.reason)),
  ];
  const noticeId = await deliver(session, target, nick, messageTo(target, input.request_id, children));
  const notice = await archivedById(session, target, noticeId);
  const after = await archivedById(session, target, handle.messageId);
  return { method: 'retracted', how: 'XEP-0424 retraction', noticeId, after, notice };
}

async function undo(
  session: ChatSession,
  settings: ResolvedChatSettings,
  handle: UndoHandle,
  input: z.infer<typeof Input>,
) {
  const target = await targetOf(session, handle);
  const nick = nickOf(settings);
  const role = target.kind === 'room' ? await joinRoom(session, target.jid, nick) : 'none';
  if (target.kind === 'room' && target.features.has(MODERATE) && role === 'moderator') {
    return moderate(session, target, handle, input.reason);
  }
  if (RETRACT_FEATURES.some((feature) => target.features.has(feature)))
    return retract(session, target, nick, handle, input);
  return correct(session, target, nick, handle, input);
}

function undoChecks(handle: UndoHandle, done: Undone): Check[] {
  if (done.method === 'retracted' && done.how.startsWith('XEP-0425')) {
    return [
      {
        name: `archive holds a tombstone for ${handle.messageId}`,
        passed: done.after?.retracted === true && done.after.body === undefined,
        detail: done.after
          ? done.after.retracted
            ? 'retracted'
            : `still reads ${JSON.stringify(done.after.body)}`
          : 'gone',
      },
    ];
  }
  return [
    {
      name: `archive holds the ${done.method === 'corrected' ? 'correction' : 'retraction'} ${done.noticeId ?? ''}`.trim(),
      passed:
        done.notice !== undefined &&
        (done.method === 'corrected'
          ? done.notice.replaces === handle.clientId
          : done.notice.retracts !== undefined),
      detail: done.notice ? `reads ${JSON.stringify(done.notice.body)}` : 'not in the archive',
    },
  ];
}

async function originalOf(ctx: ToolContext, settings: ResolvedChatSettings, handle: UndoHandle) {
  return withChat(ctx, settings, async (session) => {
    const target = await targetOf(session, handle);
    const original = await archivedById(session, target, handle.messageId);
    if (!original) {
      throw new LiftError('NOT_FOUND', `Message ${handle.messageId} is not in the archive of ${handle.to}.`, {
        outcome: 'not_started',
      });
    }
    return original;
  });
}

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
        type: 'audit',
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
