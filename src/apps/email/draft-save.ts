import { createHash, randomBytes } from 'node:crypto';
import type { ImapFlow } from 'imapflow';
import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import type { Check } from '../../contract/envelope.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { attachmentScope, readAttachments } from './attachments.js';
import { fetchByUid, findDraft, type StoredMessage } from './drafts.js';
import { specialFolder, uidsWithHeader, withImap } from './imap.js';
import { type AttachmentFile, composeMessage, DRAFT_HEADER, normaliseBody, sha256 } from './message.js';
import { Address, AttachmentSummary, DraftId, SimpleHtml } from './schemas.js';
import { deadlineOf, emailSettings, loginOf, type ResolvedEmailSettings } from './settings.js';

const Input = z.strictObject({
  to: z.array(Address).min(1).max(50),
  cc: z.array(Address).max(50).default([]),
  subject: z
    .string()
    .min(1)
    .max(900)
    .regex(/^[^\r\n]*$/, 'one line'),
  body: z.string().max(200_000).describe('The message as plain text'),
  html: SimpleHtml.optional().describe('The same message as simple HTML, if wanted'),
  attachments: z
    .array(z.string().min(1).max(4_096))
    .max(10)
    .default([])
    .describe('Paths of files to attach, inside the folders the tool may read (or files other tools made)'),
  draft_id: DraftId.optional().describe('An earlier draft to replace with this version (an edit)'),
  request_id: RequestIdSchema,
});

const Output = z.object({
  draft_id: z.string(),
  folder: z.string(),
  uid: z.number().int(),
  uidvalidity: z.string(),
  message_id: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string(),
  body_sha256: z.string(),
  has_html: z.boolean(),
  attachments: z.array(AttachmentSummary),
  replaced_uids: z.array(z.number().int()),
});

/** A new draft's id, fixed by the account and the request id that made it. */
function newDraftId(settings: ResolvedEmailSettings, requestId: string): string {
  const digest = createHash('sha256').update(`${settings.account.address}\n${requestId}`).digest('hex');
  return `d-${digest.slice(0, 12)}`;
}

function messageIdFor(draftId: string, address: string): string {
  const domain = address.split('@')[1] ?? 'localhost';
  return `<lift.${draftId}.${randomBytes(4).toString('hex')}@${domain}>`;
}

type Saved = z.infer<typeof Output>;

function readBackChecks(
  input: z.infer<typeof Input>,
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

interface SavedVersion {
  readBack: StoredMessage;
  /** UIDs of the versions this one replaced, now deleted. */
  older: number[];
  /** UIDs holding the draft after the save: this one alone. */
  left: number[];
}

/** Appends this version of the draft, removes the ones before it, and reads it back by UID. */
async function saveVersion(
  ctx: ToolContext,
  client: ImapFlow,
  settings: ResolvedEmailSettings,
  input: z.infer<typeof Input>,
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

function fieldsOf(saved: SavedVersion): Saved {
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

/** email_draft_save: appends a draft over IMAP and reads it back by UID. */
export function emailDraftSave(given: ResolvedEmailSettings | undefined): AnyTool {
  return defineTool({
    name: 'email_draft_save',
    title: 'Save an email draft',
    description:
      "Saves an email as a draft in the account's Drafts folder (nothing is sent): to, cc, subject, a plain-text body, optional simple HTML and attachments. Reads it back by UID. Returns the draft_id that email_draft_send takes; pass draft_id to replace an earlier draft with a new version.",
    group: 'email',
    rung: 'api',
    ladder: { ruledOut: [] },
    input: Input,
    output: Output,
    verifiedBy: 'IMAP FETCH of the appended UID: headers, body hash, attachment names, sizes and hashes',
    errors: {
      NOT_FOUND: {
        hint: 'The draft_id or an attachment does not exist; check it, or save without draft_id.',
      },
      UPSTREAM_ERROR: {
        retry: 'after_check',
        hint: 'The mail server failed; email_find in Drafts shows whether the draft landed.',
      },
      NOT_CONFIGURED: { hint: 'The operator configures the email account in lift.config settings.email.' },
    },
    effect: {
      class: 'reversible',
      repeat: 'The same request_id returns the first save; a new one saves another draft.',
    },
    timeout: {
      deadlineMs: deadlineOf(given, 'other'),
      settle: 'email_find with folder "Drafts" and the subject: a draft saved just now means the save landed',
    },
    session: { secret: 'email_password', onExpiry: 'AUTH_REQUIRED; a person stores the new password.' },
    paths: (input) =>
      input.attachments.map((path, index) => ({ path, scope: attachmentScope(index, given?.roots) })),
    example: {
      to: ['ops@example.org'],
      subject: 'Weekly report',
      body: 'Hello,\n\nthe weekly report is attached.\n',
      attachments: ['out/build_report/weekly.pdf'],
      request_id: 'draft-weekly-0001',
    },
    run: async (input, ctx) => {
      const settings = await emailSettings(ctx, given);
      const files = await readAttachments(ctx, input.attachments, settings.roots);
      const login = {
        server: settings.imap,
        user: loginOf(settings),
        passwordSecret: settings.account.passwordSecret,
      };
      const saved = await withImap(ctx, login, (client) => saveVersion(ctx, client, settings, input, files));
      const fields = fieldsOf(saved);
      const checks = readBackChecks(input, files, saved.readBack);
      if (saved.older.length > 0) {
        checks.push({
          name: 'earlier version removed',
          passed: saved.left.length === 1 && saved.left[0] === saved.readBack.uid,
          detail: `UIDs now ${saved.left.join(', ')}`,
        });
      }
      ctx.emit({
        type: 'email-draft-saved',
        draft_id: fields.draft_id,
        uid: fields.uid,
        folder: fields.folder,
      });
      return {
        fields,
        checks,
        summary: `Saved draft ${fields.draft_id} to ${fields.to.join(', ')} (${fields.folder} UID ${fields.uid}${files.length > 0 ? `, ${files.length} attachment(s)` : ''}); nothing was sent.`,
        verifiedBy: 'IMAP FETCH by UID (rung 1)',
      };
    },
  });
}
