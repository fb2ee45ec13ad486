import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';

const Address = z.string().regex(/^[^\s@<>",;]+@[^\s@<>",;]+$/, 'an email address');
const SecretName = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'a secret name (lift secrets set NAME)');
const Host = z.string().min(1).max(253);

/** How a connection is protected: TLS from the first byte, STARTTLS (required), or none (a local test server). */
const Tls = z.enum(['implicit', 'starttls', 'none']);

const Server = (port: number) =>
  z.strictObject({
    host: Host.default('127.0.0.1').describe("The server's host name or address."),
    port: z.number().int().min(1).max(65_535).default(port).describe("The server's port."),
    tls: Tls.default('starttls').describe(
      'How the connection is protected: `implicit` TLS from the first byte, `starttls` (required), or `none` (a local test server only).',
    ),
  });

const Mailbox = z.strictObject({
  address: Address.describe("The mailbox's address."),
  user: z
    .string()
    .min(1)
    .max(320)
    .optional()
    .describe('The IMAP login of the mailbox (default: its address).'),
  passwordSecret: SecretName.describe('The secret holding its password (lift secrets set NAME).'),
});

/**
 * Where the email tools send from and read: one account on an IMAP server (drafts, sent mail,
 * search) and an SMTP submission server. The password lives in the secret store; the login is
 * not a secret (secret values are scrubbed from every output, and the address must show).
 */
export const EmailSettingsSchema = z.strictObject({
  account: z
    .strictObject({
      address: Address.describe('The From address.'),
      name: z.string().min(1).max(200).optional().describe('The display name in From.'),
      user: z.string().min(1).max(320).optional().describe('The IMAP and SMTP login (default: the address).'),
      passwordSecret: SecretName.default('email_password').describe(
        'The secret holding the password (lift secrets set NAME); never the password itself.',
      ),
    })
    .describe('The account the tools send from and read.'),
  imap: Server(143)
    .default({ host: '127.0.0.1', port: 143, tls: 'starttls' })
    .describe('The IMAP server that keeps drafts and sent mail.'),
  smtp: Server(587)
    .default({ host: '127.0.0.1', port: 587, tls: 'starttls' })
    .describe('The SMTP submission server that sends.'),
  folders: z
    .strictObject({
      drafts: z.string().min(1).max(200).optional().describe('The drafts folder.'),
      sent: z.string().min(1).max(200).optional().describe('The sent mail folder.'),
    })
    .default({})
    .describe(
      'Folder names; by default the folders the server marks \\Drafts and \\Sent (else "Drafts", "Sent").',
    ),
  roots: z
    .array(z.string().min(1).max(4_096))
    .max(50)
    .optional()
    .describe(
      "Attachments must lie inside these folders (default: the working folder), or in Lift's output folder.",
    ),
  deliveryMailboxes: z
    .array(Mailbox)
    .max(50)
    .default([])
    .describe(
      'Local mailboxes the send may open to find the delivered message by its Message-ID. Any other recipient counts as delivered when the submission server accepted it.',
    ),
  deliveryWaitMs: z
    .number()
    .int()
    .min(0)
    .max(300_000)
    .default(30_000)
    .describe('How long the send waits for the message to arrive in a local mailbox, in milliseconds.'),
  deadlineMs: z
    .number()
    .int()
    .min(1_000)
    .max(600_000)
    .default(60_000)
    .describe(
      'How long one call may take, in milliseconds (the send gets deliveryWaitMs on top); a factory setting only (emailTools).',
    ),
});

/** Settings as an operator writes them (lift.config `settings.email`, or emailTools({...})). */
export type EmailSettings = z.input<typeof EmailSettingsSchema>;
export type ResolvedEmailSettings = z.output<typeof EmailSettingsSchema>;
export type ServerSettings = ResolvedEmailSettings['imap'];

export const EMAIL_SETTINGS_SERVICE = 'settings:email';

/** Parses settings given to the factory; a mistake there is the deployment's bug, so it throws. */
export function parseEmailSettings(settings: EmailSettings): ResolvedEmailSettings {
  const parsed = EmailSettingsSchema.safeParse(settings);
  if (!parsed.success) throw new Error(`Email settings: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The settings a call works with: the factory's, else lift.config's `settings.email`. */
export async function emailSettings(
  ctx: ToolContext,
  given: ResolvedEmailSettings | undefined,
): Promise<ResolvedEmailSettings> {
  if (given) return given;
  const configured = await ctx.service<unknown>(EMAIL_SETTINGS_SERVICE, () => {
    throw notConfigured('No email account is configured.');
  });
  const parsed = EmailSettingsSchema.safeParse(configured);
  if (!parsed.success) throw notConfigured(`lift.config settings.email: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function notConfigured(message: string): LiftError {
  return new LiftError('NOT_CONFIGURED', message, {
    hint: 'The operator sets "settings": { "email": { "account": { "address": "me@example.org" }, "imap": { "host": "..." }, "smtp": { "host": "..." } } } in lift.config.json and stores the password with lift secrets set email_password.',
    outcome: 'not_started',
  });
}

/** The deadline of a call: the factory's setting, else the default. */
export function deadlineOf(given: ResolvedEmailSettings | undefined, kind: 'send' | 'other'): number {
  const base = given?.deadlineMs ?? 60_000;
  return kind === 'send' ? base + (given?.deliveryWaitMs ?? 30_000) : base;
}

export function loginOf(settings: ResolvedEmailSettings): string {
  return settings.account.user ?? settings.account.address;
}
