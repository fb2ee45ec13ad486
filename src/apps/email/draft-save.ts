import { z } from 'zod';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { attachmentScope, readAttachments } from './attachments.js';
import { Address, DraftId, MessageHeads, SimpleHtml } from './schemas.js';
import { deadlineOf, emailSettings, loginOf, type ResolvedEmailSettings } from './settings.js';
// Declares the events this file emits, with their words (a run log's readers find them there).
import './events.js';

const Input = z.strictObject({
  to: z.array(Address).min(1).max(50).describe('Recipients.'),
  cc: z.array(Address).max(50).default([]).describe('Copy recipients.'),
  subject: z
    .string()
    .min(1)
    .max(900)
    .regex(/^[^\r\n]*$/, 'one line')
    .describe('One line.'),
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

export type DraftSaveInput = z.infer<typeof Input>;

const Output = z.object({
  draft_id: z.string().describe('Pass to email_draft_send, or back here to edit: d-0123456789ab.'),
  folder: z.string().describe('IMAP folder holding it.'),
  uid: z.number().int().describe('Its IMAP UID there.'),
  uidvalidity: z.string().describe("The folder's UIDVALIDITY."),
  ...MessageHeads,
  body_sha256: z.string().describe('SHA-256 of the plain-text body as read back.'),
  has_html: z.boolean().describe('True when it carries an HTML part.'),
  replaced_uids: z.array(z.number().int()).describe("UIDs of the draft's earlier versions, deleted."),
});

export type SavedDraft = z.infer<typeof Output>;

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
      // The mail libraries and the IMAP work load when a draft is first saved.
      const { withImap } = await import('./imap.js');
      const { fieldsOf, readBackChecks, saveVersion } = await import('./draft-version.js');
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
