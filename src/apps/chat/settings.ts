import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';

export const BareJid = z
  .string()
  .max(1_023)
  .regex(/^[^\s@/"&'<>:]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/, 'a bare address: name@example.org');
const SecretName = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'a secret name (lift secrets set NAME)');
const Domain = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/, 'a domain');

/**
 * Where the chat tools post: one XMPP account, its server, the group-chat service that "#name"
 * stands for, and the HTTP file sharing service (found by service discovery unless named).
 */
export const ChatSettingsSchema = z.strictObject({
  account: z
    .strictObject({
      jid: BareJid.describe("The account's bare address, name@example.org."),
      passwordSecret: SecretName.default('chat_password').describe(
        'The secret holding the password (lift secrets set NAME); never the password itself.',
      ),
      nick: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe("The name shown in rooms (default: the account's local part)."),
    })
    .describe('The XMPP account the tools post as.'),
  server: z
    .strictObject({
      host: z
        .string()
        .min(1)
        .max(253)
        .optional()
        .describe("The server's host (default: the account's domain)."),
      port: z.number().int().min(1).max(65_535).default(5222).describe('The client port.'),
      tls: z
        .enum(['starttls', 'implicit', 'none'])
        .default('starttls')
        .describe(
          'How the connection is protected: `starttls`, `implicit` TLS, or `none` (a local test server only).',
        ),
    })
    .default({ port: 5222, tls: 'starttls' })
    .describe("Where the account's server is."),
  rooms: Domain.optional().describe(
    'The group-chat service: "#team" means team@ROOMS (default conference.DOMAIN).',
  ),
  upload: Domain.optional().describe('The XEP-0363 file upload service (default: the one the server lists).'),
  roots: z
    .array(z.string().min(1).max(4_096))
    .max(50)
    .optional()
    .describe(
      "Files to post must lie inside these folders (default: the working folder), or in Lift's output folder.",
    ),
  deadlineMs: z
    .number()
    .int()
    .min(1_000)
    .max(600_000)
    .default(60_000)
    .describe('How long one call may take, in milliseconds; a factory setting only (chatTools).'),
});

export type ChatSettings = z.input<typeof ChatSettingsSchema>;
export type ResolvedChatSettings = z.output<typeof ChatSettingsSchema>;

export const CHAT_SETTINGS_SERVICE = 'settings:chat';

export function parseChatSettings(settings: ChatSettings): ResolvedChatSettings {
  const parsed = ChatSettingsSchema.safeParse(settings);
  if (!parsed.success) throw new Error(`Chat settings: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The settings a call works with: the factory's, else lift.config's `settings.chat`. */
export async function chatSettings(
  ctx: ToolContext,
  given: ResolvedChatSettings | undefined,
): Promise<ResolvedChatSettings> {
  if (given) return given;
  const configured = await ctx.service<unknown>(CHAT_SETTINGS_SERVICE, () => {
    throw notConfigured('No chat account is configured.');
  });
  const parsed = ChatSettingsSchema.safeParse(configured);
  if (!parsed.success) throw notConfigured(`lift.config settings.chat: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function notConfigured(message: string): LiftError {
  return new LiftError('NOT_CONFIGURED', message, {
    hint: 'The operator sets "settings": { "chat": { "account": { "jid": "lift@example.org" } } } in lift.config.json and stores the password with lift secrets set chat_password.',
    outcome: 'not_started',
  });
}

export function domainOf(jid: string): string {
  return jid.split('@')[1] ?? jid;
}

export function roomServiceOf(settings: ResolvedChatSettings): string {
  return settings.rooms ?? `conference.${domainOf(settings.account.jid)}`;
}
