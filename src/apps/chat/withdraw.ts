import type { ToolContext } from '../../contract/context.js';
import type { Check } from '../../contract/envelope.js';
import { LiftError } from '../../contract/errors.js';
import { type ArchivedMessage, CORRECT, FASTEN, MODERATE, RETRACT } from './archive.js';
import { archivedById, deliver, lastMessages, messageTo } from './deliver.js';
import type { UndoHandle } from './handle.js';
import { type ChatSession, withChat, xml } from './session.js';
import type { ResolvedChatSettings } from './settings.js';
import { discoInfo, joinRoom, type Target } from './target.js';
import type { ChatUndoInput } from './undo.js';

/*
 * The XMPP work of chat_undo: find the post in the archive, then retract it (XEP-0425 as a
 * moderator, XEP-0424 as its author) or correct it (XEP-0308). Loaded when chat_undo is first called.
 */

/** Says XEP-0424 retraction of one's own message (the service names the feature). */
const RETRACT_FEATURES = ['urn:xmpp:message-retract:0', 'urn:xmpp:message-retract:1'];

const nickOf = (settings: ResolvedChatSettings) =>
  settings.account.nick ?? settings.account.jid.split('@')[0] ?? 'lift';

export const withdrawal = (reason: string) => `(withdrawn: ${reason})`;

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
  input: ChatUndoInput,
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
  input: ChatUndoInput,
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

export async function undo(
  session: ChatSession,
  settings: ResolvedChatSettings,
  handle: UndoHandle,
  input: ChatUndoInput,
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

export function undoChecks(handle: UndoHandle, done: Undone): Check[] {
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

export async function originalOf(ctx: ToolContext, settings: ResolvedChatSettings, handle: UndoHandle) {
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
