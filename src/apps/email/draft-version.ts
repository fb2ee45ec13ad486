import { createHash, randomBytes } from 'node:crypto';
import type { ImapFlow } from 'imapflow';
import type { ToolContext } from '../../contract/context.js';
import type { Check } from '../../contract/envelope.js';
import type { DraftSaveInput, SavedDraft } from './draft-save.js';
import { fetchByUid, findDraft, type StoredMessage } from './drafts.js';
import { specialFolder, uidsWithHeader } from './imap.js';
import { type AttachmentFile, composeMessage, DRAFT_HEADER, normaliseBody, sha256 } from './message.js';
import type { ResolvedEmailSettings } from './settings.js';

/*
 * The IMAP work of email_draft_save: append a version, remove the ones before it, read it back.
 * Loaded when the tool is first called, not when it is declared.
 */

/** A new draft's id, fixed by the account and the request id that made it. */
function newDraftId(settings: ResolvedEmailSettings, requestId: string): string {
  const digest = createHash('sha256').update(`${settings.account.address}\n${requestId}`).digest('hex');
  return `d-${digest.slice(0, 12)}`;
}

function messageIdFor(draftId: string, address: string): string {
  const domain = address.split('@')[1] ?? 'localhost';
  return `<lift.${draftId}.${randomBytes(4).toString('hex')}@${domain}>`;
}

export function readBackChecks(
  input: DraftSaveInput,
  files: AttachmentFile[],
  saved: StoredMessage,
): Check[] {
  const { view } = saved;
  const same = (a: string[], b: string[]) => a.join(',').toLowerCase() === b.join(',').toLowerCase();
  const checks: Check[] = [
    {
      name: 'headers read back',
      passed: same(view.to, input.to) && same(view.cc, input.cc) && view.subject === input.subject,
      detail: `to ${view.to.join(', ')}; cc ${view.cc.join(', ') || 'none'}; subject ${JSON.stringify(view.subject)}`,
    },
    {
      name: 'body sha256 read back',
      passed: view.bodySha256 === sha256(normaliseBody(input.body)),
      detail: view.bodySha256.slice(0, 16),
    },
    {
      name: 'attachment count',
      passed: view.attachments.length === files.length,
      detail: `${view.attachments.length} of ${files.length}`,
    },
  ];
  for (const file of files) {
    const found = view.attachments.find((attachment) => attachment.name === file.name);
    checks.push({
      name: `attachment ${file.name}`,
      passed: found?.size === file.bytes.length && found.sha256 === sha256(file.bytes),
      detail: found ? `${found.size} bytes read back` : 'missing',
    });
  }
  return checks;
}

export interface SavedVersion {
  readBack: StoredMessage;
  /** UIDs of the versions this one replaced, now deleted. */
  older: number[];
  /** UIDs holding the draft after the save: this one alone. */
  left: number[];
}

/** Appends this version of the draft, removes the ones before it, and reads it back by UID. */
export async function saveVersion(
  ctx: ToolContext,
  client: ImapFlow,
  settings: ResolvedEmailSettings,
  input: DraftSaveInput,
  files: AttachmentFile[],
): Promise<SavedVersion> {
  const earlier = input.draft_id ? await findDraft(client, settings, input.draft_id) : undefined;
  const draftId = earlier?.view.draftId ?? newDraftId(settings, input.request_id);
  const source = await composeMessage({
    from: { address: settings.account.address, name: settings.account.name },
    to: input.to,
    cc: input.cc,
    subject: input.subject,
    text: input.body,
    html: input.html,
    attachments: files,
    draftId,
    messageId: earlier?.view.messageId || messageIdFor(draftId, settings.account.address),
  });
  const folder = earlier?.folder ?? (await specialFolder(client, '\\Drafts', settings.folders.drafts));
  await client.mailboxOpen(folder);
  ctx.markStarted();
  const appended = await client.append(folder, source, ['\\Draft', '\\Seen']);
  const uids = await uidsWithHeader(client, DRAFT_HEADER, draftId);
  const uid = appended && appended.uid !== undefined ? appended.uid : (uids.at(-1) ?? 0);
  const older = uids.filter((other) => other < uid);
  if (older.length > 0) await client.messageDelete(older, { uid: true });
  const readBack = await fetchByUid(client, folder, uid);
  return { readBack, older, left: await uidsWithHeader(client, DRAFT_HEADER, draftId) };
}

export function fieldsOf(saved: SavedVersion): SavedDraft {
  const { view } = saved.readBack;
  return {
    draft_id: view.draftId ?? '',
    folder: saved.readBack.folder,
    uid: saved.readBack.uid,
    uidvalidity: saved.readBack.uidValidity,
    message_id: view.messageId,
    from: view.from,
    to: view.to,
    cc: view.cc,
    subject: view.subject,
    body_sha256: view.bodySha256,
    has_html: view.hasHtml,
    attachments: view.attachments,
    replaced_uids: saved.older,
  };
}
