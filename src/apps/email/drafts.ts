import type { ImapFlow } from 'imapflow';
import { LiftError } from '../../contract/errors.js';
import { specialFolder, uidsWithHeader } from './imap.js';
import { DRAFT_HEADER, type MessageView, readMessage } from './message.js';
import type { ResolvedEmailSettings } from './settings.js';

export interface StoredMessage {
  folder: string;
  uid: number;
  uidValidity: string;
  source: Buffer;
  view: MessageView;
}

/** The message with this UID in the open folder, read back whole. */
export async function fetchByUid(client: ImapFlow, folder: string, uid: number): Promise<StoredMessage> {
  const message = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
  const source = message === false ? undefined : message.source;
  if (!source) {
    throw new LiftError('CHECK_FAILED', `UID ${uid} is not in ${folder} when read back.`, {
      outcome: 'unknown',
    });
  }
  return {
    folder,
    uid,
    uidValidity: String(client.mailbox ? client.mailbox.uidValidity : ''),
    source,
    view: await readMessage(source),
  };
}

/**
 * The newest saved version of a draft (each edit appends a new message and removes the old one),
 * or NOT_FOUND saying whether it was already sent. Leaves the Drafts folder open.
 */
export async function findDraft(
  client: ImapFlow,
  settings: ResolvedEmailSettings,
  draftId: string,
): Promise<StoredMessage> {
  const drafts = await specialFolder(client, '\\Drafts', settings.folders.drafts);
  await client.mailboxOpen(drafts);
  const uids = await uidsWithHeader(client, DRAFT_HEADER, draftId);
  const newest = uids.at(-1);
  if (newest !== undefined) return fetchByUid(client, drafts, newest);
  const sent = await specialFolder(client, '\\Sent', settings.folders.sent);
  await client.mailboxOpen(sent);
  const sentUid = (await uidsWithHeader(client, DRAFT_HEADER, draftId)).at(-1);
  await client.mailboxOpen(drafts);
  if (sentUid !== undefined) {
    throw new LiftError(
      'NOT_FOUND',
      `Draft ${draftId} is no longer in ${drafts}: it was sent (${sent} UID ${sentUid}).`,
      {
        hint: 'It was sent already; save a new draft to send again.',
        outcome: 'not_started',
      },
    );
  }
  throw new LiftError('NOT_FOUND', `No draft ${draftId} in ${drafts}.`, {
    hint: 'Use the draft_id email_draft_save returned; email_find with folder "Drafts" lists the drafts.',
    outcome: 'not_started',
  });
}
