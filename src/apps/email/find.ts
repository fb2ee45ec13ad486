import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FetchMessageObject, ImapFlow, MessageStructureObject, SearchObject } from 'imapflow';
import { z } from 'zod';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { uidsWithHeader, withImap } from './imap.js';
import { Address, MessageId } from './schemas.js';
import { deadlineOf, emailSettings, loginOf, type ResolvedEmailSettings } from './settings.js';

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date: 2026-12-01');

const Input = z.strictObject({
  mailbox: Address.optional().describe(
    "Another mailbox the operator lets Lift read (a local recipient's), instead of the account's own",
  ),
  folder: z.string().min(1).max(200).default('INBOX').describe('INBOX, Drafts, Sent or another folder'),
  from: z.string().min(1).max(320).optional().describe('Part of the sender'),
  to: z.string().min(1).max(320).optional().describe('Part of a recipient'),
  subject: z.string().min(1).max(500).optional().describe('Part of the subject'),
  since: Day.optional().describe('Arrived on or after this day'),
  before: Day.optional().describe('Arrived before this day'),
  message_id: MessageId.optional().describe('Exactly this Message-ID'),
  limit: z.number().int().min(1).max(100).default(20).describe('Most messages to return, newest first.'),
});

const Found = z.object({
  uid: z.number().int().describe('IMAP UID in the folder.'),
  message_id: z.string().describe('Message-ID header, with its <>.'),
  date: z.string().describe('ISO 8601.'),
  from: z.string().describe('Sender address.'),
  to: z.array(z.string()).describe('Recipient addresses.'),
  subject: z.string().describe('Subject line.'),
  size: z.number().int().describe('Bytes.'),
  flags: z.array(z.string()).describe('IMAP flags: \\Seen, \\Draft, ...'),
  attachments: z.array(z.string()).describe('Attachment file names.'),
});
type Found = z.infer<typeof Found>;

const Output = z.object({
  folder: z.string().describe('The folder searched.'),
  total: z.number().int().describe('Messages that match, listed or not.'),
  messages: z.array(Found).describe('The newest matches, at most limit.'),
});

/** Matches beyond this many are not read at all; the envelope says so. */
const MAX_LISTED = 2_000;

function attachmentNames(node: MessageStructureObject | undefined): string[] {
  if (!node) return [];
  const own =
    node.disposition === 'attachment'
      ? [node.dispositionParameters?.filename ?? node.parameters?.name ?? '(unnamed)']
      : [];
  return [...own, ...(node.childNodes ?? []).flatMap(attachmentNames)];
}

function summaryOf(message: FetchMessageObject): Found {
  const envelope = message.envelope;
  const date = envelope?.date ?? message.internalDate;
  return {
    uid: message.uid,
    message_id: envelope?.messageId ?? '',
    date: date ? new Date(date).toISOString() : '',
    from: envelope?.from?.[0]?.address ?? '',
    to: (envelope?.to ?? []).map((address) => address.address ?? ''),
    subject: envelope?.subject ?? '',
    size: message.size ?? 0,
    flags: [...(message.flags ?? [])],
    attachments: attachmentNames(message.bodyStructure),
  };
}

async function search(client: ImapFlow, input: z.infer<typeof Input>): Promise<number[]> {
  if (input.message_id) return uidsWithHeader(client, 'Message-ID', input.message_id);
  const query: SearchObject = { all: true };
  if (input.from) query.from = input.from;
  if (input.to) query.to = input.to;
  if (input.subject) query.subject = input.subject;
  if (input.since) query.since = input.since;
  if (input.before) query.before = input.before;
  const found = await client.search(query, { uid: true });
  return found || [];
}

/** The account's own login, or that of another mailbox the operator listed. */
function loginFor(settings: ResolvedEmailSettings, mailbox: string | undefined) {
  if (!mailbox || mailbox.toLowerCase() === settings.account.address.toLowerCase()) {
    return {
      server: settings.imap,
      user: loginOf(settings),
      passwordSecret: settings.account.passwordSecret,
    };
  }
  const listed = settings.deliveryMailboxes.find(
    (entry) => entry.address.toLowerCase() === mailbox.toLowerCase(),
  );
  if (!listed) {
    const readable = [settings.account.address, ...settings.deliveryMailboxes.map((entry) => entry.address)];
    throw new LiftError('POLICY_BLOCKED', `Lift may not read the mailbox of ${mailbox}.`, {
      hint: `Readable mailboxes: ${readable.join(', ')}. The operator lists more in settings.email.deliveryMailboxes.`,
      outcome: 'not_started',
    });
  }
  return {
    server: settings.imap,
    user: listed.user ?? listed.address,
    passwordSecret: listed.passwordSecret,
  };
}

async function findMessages(
  settings: ResolvedEmailSettings,
  ctx: Parameters<AnyTool['run']>[1],
  input: z.infer<typeof Input>,
) {
  return withImap(ctx, loginFor(settings, input.mailbox), async (client) => {
    try {
      await client.mailboxOpen(input.folder, { readOnly: true });
    } catch (error) {
      throw new LiftError('NOT_FOUND', `There is no folder ${JSON.stringify(input.folder)}.`, {
        hint: 'Use INBOX, Drafts, Sent, or a folder the account has.',
        outcome: 'not_started',
        cause: error,
      });
    }
    const uids = (await search(client, input)).sort((a, b) => b - a);
    const listed = uids.slice(0, MAX_LISTED);
    const messages: Found[] = [];
    if (listed.length > 0) {
      const query = {
        uid: true,
        envelope: true,
        flags: true,
        size: true,
        bodyStructure: true,
        internalDate: true,
      };
      for await (const message of client.fetch(listed, query, { uid: true }))
        messages.push(summaryOf(message));
    }
    return { total: uids.length, messages: messages.sort((a, b) => b.uid - a.uid) };
  });
}

/** email_find: messages of one folder by sender, recipient, subject, date range or Message-ID. */
export function emailFind(given: ResolvedEmailSettings | undefined): AnyTool {
  return defineTool({
    name: 'email_find',
    title: 'Find email messages',
    description:
      'Finds messages in one folder of the account (INBOX, Drafts, Sent, ...), or of a local mailbox the operator lets Lift read, by sender, recipient, subject, arrival dates or exact Message-ID, newest first. Returns uid, Message-ID, date, from, to, subject, size, flags and attachment names; more than `limit` matches go to a file.',
    group: 'email',
    rung: 'api',
    input: Input,
    output: Output,
    cap: { chars: 16_000, narrow: 'Add from, subject or a date range, or lower limit.' },
    errors: {
      NOT_FOUND: { hint: 'No such folder; use INBOX, Drafts or Sent.' },
      POLICY_BLOCKED: { hint: 'Only the account and the mailboxes the operator listed can be read.' },
      UPSTREAM_ERROR: { retry: 'yes', hint: 'The mail server failed; a read may be tried again.' },
      NOT_CONFIGURED: { hint: 'The operator configures the email account in lift.config settings.email.' },
    },
    effect: { class: 'read' },
    timeout: { deadlineMs: deadlineOf(given, 'other') },
    session: { secret: 'email_password', onExpiry: 'AUTH_REQUIRED; a person stores the new password.' },
    example: { folder: 'INBOX', from: 'ops@example.org', since: '2026-11-01', limit: 10 },
    run: async (input, ctx) => {
      const settings = await emailSettings(ctx, given);
      const { total, messages } = await findMessages(settings, ctx, input);
      const shown = messages.slice(0, input.limit);
      const files: Record<string, string> = {};
      if (messages.length > shown.length) {
        await mkdir(ctx.outputDir, { recursive: true });
        const path = join(ctx.outputDir, `found-${ctx.runId}-${Date.now()}.jsonl`);
        await writeFile(path, `${messages.map((message) => JSON.stringify(message)).join('\n')}\n`);
        files.all = path;
      }
      const cut = total > shown.length;
      return {
        fields: { folder: input.folder, total, messages: shown },
        summary: `${total} message(s) in ${input.folder}${cut ? `, newest ${shown.length} returned${files.all ? ` (the first ${messages.length} in files.all)` : ''}` : ''}`,
        files,
        truncated: cut,
        ...(cut ? { narrow: 'Add from, subject or a date range; files.all lists every match read.' } : {}),
        verifiedBy: 'IMAP SEARCH and FETCH (rung 1)',
      };
    },
  });
}
