import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import type { Check } from '../../contract/envelope.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import type { Delivery } from './delivery.js';
import type { StoredMessage } from './drafts.js';
import { specialFolder, uidsWithHeader, withImap } from './imap.js';
import { DraftId, MessageHeads } from './schemas.js';
import { deadlineOf, emailSettings, loginOf, type ResolvedEmailSettings } from './settings.js';
import type { Submitted } from './smtp.js';

const Input = z.strictObject({
  draft_id: DraftId.describe('The draft email_draft_save returned'),
  request_id: RequestIdSchema,
});

const DeliverySchema = z.object({
  address: z.string().describe('Recipient.'),
  by: z
    .enum(['mailbox', 'server_acceptance'])
    .describe('How it was confirmed: found in a local mailbox, or accepted by the server.'),
  found: z.boolean().describe('True when confirmed.'),
  folder: z.string().optional().describe('Mailbox folder it arrived in.'),
  uid: z.number().int().optional().describe('Its IMAP UID there.'),
  detail: z.string().optional().describe('Why it was not found.'),
});

const Output = z.object({
  draft_id: z.string().describe('The draft sent.'),
  ...MessageHeads,
  accepted: z.array(z.string()).describe('Addresses the SMTP server accepted.'),
  rejected: z.array(z.string()).describe('Addresses it refused.'),
  smtp_response: z.string().describe("The server's final reply, e.g. 250 2.0.0 Ok: queued."),
  queue_id: z.string().optional().describe("The server's queue id, when it gave one."),
  sent_folder: z.string().describe('IMAP folder the sent copy went to.'),
  sent_uid: z.number().int().optional().describe('Its UID there.'),
  deliveries: z.array(DeliverySchema).describe('Per recipient, whether delivery was confirmed.'),
  approval_id: z.string().describe('The approval that let it go.'),
  approved_by: z.string().describe('Who approved it.'),
});

const loginFor = (settings: ResolvedEmailSettings) => ({
  server: settings.imap,
  user: loginOf(settings),
  passwordSecret: settings.account.passwordSecret,
});

interface Sent {
  draft: StoredMessage;
  submitted: Submitted;
  sentFolder: string;
  sentUid: number | undefined;
  leftInDrafts: number;
}

/** Sends the approved bytes, then files them in Sent (the draft's \Draft flag dropped). */
async function sendApproved(
  ctx: ToolContext,
  settings: ResolvedEmailSettings,
  draftId: string,
): Promise<Sent> {
  const approval = ctx.approval;
  if (!approval?.digest) {
    throw new LiftError('POLICY_BLOCKED', 'email_draft_send sends only a draft a person approved.', {
      outcome: 'not_started',
    });
  }
  // Reading drafts and submitting over SMTP load when a draft is first sent, not when the tool is declared.
  const { findDraft } = await import('./drafts.js');
  const { submitMessage } = await import('./smtp.js');
  return withImap(ctx, loginFor(settings), async (client) => {
    const draft = await findDraft(client, settings, draftId);
    if (draft.view.sourceSha256 !== approval.digest) {
      throw new LiftError(
        'APPROVAL_STALE',
        `Draft ${draftId} changed after it was approved; nothing was sent.`,
        {
          hint: 'Call email_draft_send again: the person sees the draft as it is now and approves that.',
          outcome: 'not_started',
        },
      );
    }
    const recipients = [...draft.view.to, ...draft.view.cc];
    const submitted = await submitMessage(
      ctx,
      settings,
      { from: settings.account.address, to: recipients },
      draft.source,
    );
    const sentFolder = await specialFolder(client, '\\Sent', settings.folders.sent);
    await client.messageFlagsRemove(String(draft.uid), ['\\Draft'], { uid: true });
    await client.messageMove(String(draft.uid), sentFolder, { uid: true });
    const leftInDrafts = (await uidsWithHeader(client, 'Message-ID', draft.view.messageId)).length;
    await client.mailboxOpen(sentFolder);
    const sentUid = (await uidsWithHeader(client, 'Message-ID', draft.view.messageId)).at(-1);
    return { draft, submitted, sentFolder, sentUid, leftInDrafts };
  });
}

function sendChecks(sent: Sent, recipients: string[], deliveries: Delivery[]): Check[] {
  const { submitted } = sent;
  return [
    {
      name: 'draft unchanged since the approval',
      passed: true,
      detail: sent.draft.view.sourceSha256.slice(0, 16),
    },
    {
      name: 'server accepted every recipient',
      passed: submitted.rejected.length === 0 && submitted.accepted.length === recipients.length,
      detail: submitted.response,
    },
    {
      name: 'filed in Sent, gone from Drafts',
      passed: sent.sentUid !== undefined && sent.leftInDrafts === 0,
      detail: `${sent.sentFolder} UID ${sent.sentUid ?? 'missing'}`,
    },
    ...deliveries.map((delivery) => ({
      name:
        delivery.by === 'mailbox'
          ? `delivered to ${delivery.address} (Message-ID found in ${delivery.folder ?? 'INBOX'})`
          : `accepted for ${delivery.address} (remote: the server's acceptance)`,
      passed: delivery.found,
      ...(delivery.detail ? { detail: delivery.detail } : {}),
    })),
  ];
}

/** email_draft_send: one saved draft, sent as the person saw it, after a signature. */
export function emailDraftSend(given: ResolvedEmailSettings | undefined): AnyTool {
  return defineTool({
    name: 'email_draft_send',
    title: 'Send a saved email draft',
    description:
      'Sends one saved draft by its draft_id, exactly as saved, after a person signs off on a preview read from the draft itself. Files it in Sent and confirms delivery. Returns the Message-ID, the server reply and where it was delivered. A sent email cannot be unsent.',
    group: 'email',
    rung: 'api',
    input: Input,
    output: Output,
    verifiedBy:
      "SMTP reply per recipient, IMAP search of Sent, and the recipient's mailbox searched by Message-ID",
    errors: {
      NOT_FOUND: { hint: 'No such draft in Drafts (or it was sent already); save a draft first.' },
      APPROVAL_STALE: {
        hint: 'The draft changed after the yes. Call email_draft_send again to ask about the new version.',
      },
      POLICY_BLOCKED: {
        hint: 'The server refused the recipients or the send was not approved. Nothing was sent.',
      },
      UPSTREAM_ERROR: {
        retry: 'after_check',
        hint: 'The mail server failed; settle with email_find in Sent before any retry.',
      },
      NOT_CONFIGURED: { hint: 'The operator configures the email account in lift.config settings.email.' },
    },
    effect: {
      class: 'irreversible',
      gate: 'signature',
      repeat:
        'The same request_id returns the first send; the draft leaves Drafts once sent, so it cannot go twice.',
    },
    timeout: {
      deadlineMs: deadlineOf(given, 'send'),
      settle:
        'email_find with message_id (the Message-ID email_draft_save returned) in folder "Sent", and with mailbox set to each recipient Lift may read (folder INBOX): found in either means it was sent. The server may still deliver a message whose reply was lost, so never send again before this read',
    },
    session: { secret: 'email_password', onExpiry: 'AUTH_REQUIRED; a person stores the new password.' },
    example: { draft_id: 'd-3f2a9c01b7e4', request_id: 'send-weekly-0001' },
    preview: async (input, ctx) => {
      const { findDraft } = await import('./drafts.js');
      const { sendPreview } = await import('./message.js');
      const settings = await emailSettings(ctx, given);
      const draft = await withImap(ctx, loginFor(settings), (client) =>
        findDraft(client, settings, input.draft_id),
      );
      return { text: sendPreview(draft.view, draft.folder, draft.uid), digest: draft.view.sourceSha256 };
    },
    run: async (input, ctx) => {
      const { confirmDelivery } = await import('./delivery.js');
      const settings = await emailSettings(ctx, given);
      const sent = await sendApproved(ctx, settings, input.draft_id);
      const { view } = sent.draft;
      const recipients = [...view.to, ...view.cc];
      const deliveries = await confirmDelivery(
        ctx,
        settings,
        recipients,
        sent.submitted.accepted,
        view.messageId,
      );
      const approval = ctx.approval!;
      const fields = {
        draft_id: input.draft_id,
        message_id: view.messageId,
        from: view.from,
        to: view.to,
        cc: view.cc,
        subject: view.subject,
        attachments: view.attachments,
        accepted: sent.submitted.accepted,
        rejected: sent.submitted.rejected,
        smtp_response: sent.submitted.response,
        ...(sent.submitted.queueId ? { queue_id: sent.submitted.queueId } : {}),
        sent_folder: sent.sentFolder,
        ...(sent.sentUid !== undefined ? { sent_uid: sent.sentUid } : {}),
        deliveries,
        approval_id: approval.id,
        approved_by: approval.by,
      };
      ctx.emit({
        type: 'audit-recorded',
        effect: 'email_sent',
        gate: approval.gate,
        server: `${settings.smtp.host}:${settings.smtp.port}`,
        ...fields,
        attachments: view.attachments.map((file) => `${file.name} (${file.size} bytes)`),
      });
      return {
        fields,
        checks: sendChecks(sent, recipients, deliveries),
        summary: `Sent "${view.subject}" to ${recipients.join(', ')} (${view.messageId}; ${sent.submitted.response}); filed in ${sent.sentFolder}. Approved by ${approval.by}.`,
        verifiedBy: 'SMTP acceptance, IMAP Sent folder and recipient mailbox by Message-ID (rung 1)',
      };
    },
  });
}
