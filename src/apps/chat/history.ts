import { z } from 'zod';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import type { ArchivedMessage } from './archive.js';
import { ChatAddress, ChatKind, ChatTarget } from './post.js';
import { chatSettings, type ResolvedChatSettings } from './settings.js';

const Input = z.strictObject({
  to: ChatTarget,
  limit: z.number().int().min(1).max(100).default(20).describe('The last this many messages.'),
  message_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Only the message with this id: the server's message_id, or the request_id it was posted with"),
});

const Message = z.object({
  id: z.string().describe("The archive's id: chat_post's message_id."),
  from: z.string().describe('Sender address.'),
  at: z.string().describe('ISO 8601 time.'),
  body: z.string().optional().describe('Text.'),
  url: z.string().optional().describe('A shared file.'),
  client_id: z.string().optional().describe("The sender's id: chat_post's request_id."),
  retracted: z.boolean().describe('True when taken back.'),
  replaces: z.string().optional().describe('The id of the message it corrects.'),
  retracts: z.string().optional().describe('The id of the message it takes back.'),
});

const Output = z.object({
  to: ChatAddress,
  kind: ChatKind,
  messages: z.array(Message).describe('Oldest first.'),
});

/** How far back a search by id looks when the server cannot filter by id itself. */
const SEARCH_DEPTH = 200;

function shown(message: ArchivedMessage): z.infer<typeof Message> {
  return {
    id: message.id,
    from: message.from,
    at: message.stamp,
    ...(message.body !== undefined ? { body: message.body } : {}),
    ...(message.url ? { url: message.url } : {}),
    ...((message.originId ?? message.clientId) ? { client_id: message.originId ?? message.clientId } : {}),
    retracted: message.retracted,
    ...(message.replaces ? { replaces: message.replaces } : {}),
    ...(message.retracts ? { retracts: message.retracts } : {}),
  };
}

/** chat_history: the last messages of a room (or of the conversation with a person) from the archive. */
export function chatHistory(given: ResolvedChatSettings | undefined): AnyTool {
  return defineTool({
    name: 'chat_history',
    title: 'Read a chat room',
    description:
      'Reads the last messages of a team chat room ("#team") or of the conversation with a person from the server\'s archive, oldest first, or one message by its id. Returns id, sender, time, text, file link, and whether it was retracted or corrects another.',
    group: 'chat',
    rung: 'api',
    input: Input,
    output: Output,
    cap: { chars: 12_000, rows: 100, narrow: 'Lower limit, or ask for one message_id.' },
    errors: {
      NOT_FOUND: { hint: 'No such room; check the name.' },
      UPSTREAM_ERROR: { retry: 'yes', hint: 'The chat server failed; a read may be tried again.' },
      NOT_CONFIGURED: { hint: 'The operator configures the chat account in lift.config settings.chat.' },
    },
    effect: { class: 'read' },
    timeout: { deadlineMs: given?.deadlineMs ?? 30_000 },
    session: { secret: 'chat_password', onExpiry: 'AUTH_REQUIRED; a person stores the new password.' },
    example: { to: '#team', limit: 10 },
    run: async (input, ctx) => {
      // The chat client and the archive queries load when the history is first read.
      const { lastMessages } = await import('./deliver.js');
      const { withChat } = await import('./session.js');
      const { resolveTarget } = await import('./target.js');
      const settings = await chatSettings(ctx, given);
      const { target, messages } = await withChat(ctx, settings, async (session) => {
        const target = await resolveTarget(session, settings, input.to);
        const messages = await lastMessages(session, target, input.message_id ? SEARCH_DEPTH : input.limit);
        return { target, messages };
      });
      const id = input.message_id;
      const picked = id
        ? messages.filter(
            (message) => message.id === id || message.originId === id || message.clientId === id,
          )
        : messages;
      return {
        fields: { to: target.jid, kind: target.kind, messages: picked.map(shown) },
        summary: id
          ? picked.length > 0
            ? `Message ${id} is in the archive of ${target.jid}${picked[0]?.retracted ? ' (retracted)' : ''}.`
            : `No message ${id} among the last ${SEARCH_DEPTH} of ${target.jid}.`
          : `${picked.length} message(s) from the archive of ${target.jid}.`,
        verifiedBy: 'MAM archive query (rung 1)',
      };
    },
  });
}
