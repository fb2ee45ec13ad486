import { z } from 'zod';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { fileScope } from './file-scope.js';
import { formatHandle } from './handle.js';
import { chatSettings, type ResolvedChatSettings } from './settings.js';

export const ChatTarget = z
  .string()
  .min(2)
  .max(1_023)
  .regex(
    /^(#[a-z0-9][a-z0-9._-]{0,99}|[^\s@/"&'<>:]+@[A-Za-z0-9.-]+)$/,
    '"#room" or an address: team@conference.example.org, ana@example.org',
  )
  .describe('"#team" (a room of the configured group-chat service), a room address, or a person\'s address');

const Input = z.strictObject({
  to: ChatTarget,
  message: z.string().min(1).max(10_000).describe('Plain text; new lines allowed.'),
  file: z.string().min(1).max(4_096).optional().describe('A file to share with the message (uploaded first)'),
  request_id: RequestIdSchema,
});

export type ChatPostInput = z.infer<typeof Input>;

export const ChatAddress = z.string().describe('The room or person, as a full address.');
export const ChatKind = z.enum(['room', 'person']).describe('A room or a person.');

const Output = z.object({
  to: ChatAddress,
  kind: ChatKind,
  message_id: z.string().describe('The id the server gave the message in its archive'),
  client_id: z.string().describe('The id Lift sent it with: the request_id.'),
  file: z
    .object({
      name: z.string().describe('File name.'),
      size: z.number().int().describe('Bytes.'),
      sha256: z.string().describe('SHA-256 of the bytes, hex.'),
      url: z.string().describe('Where the room can download it.'),
    })
    .optional()
    .describe('The file shared, checked at its URL.'),
  undo: z.string().describe('Pass to chat_undo to take the post back'),
});

/** chat_post: a message (and a file) to a room or a person, read back from the server's archive. */
export function chatPost(given: ResolvedChatSettings | undefined): AnyTool {
  return defineTool({
    name: 'chat_post',
    title: 'Post to a team chat room',
    description:
      'Posts a message, and optionally a file, to a team chat room ("#team") or a person over XMPP, after a person reviews it. Checks the room\'s archive for the message and the file\'s link for the same bytes. Returns the message_id and an undo handle for chat_undo.',
    group: 'chat',
    rung: 'api',
    input: Input,
    output: Output,
    verifiedBy:
      "the room's message archive (XEP-0313) by the server's id, and the uploaded file's URL by its bytes",
    errors: {
      NOT_FOUND: { hint: 'No such room or file; check the name (chat_history of the room shows it exists).' },
      APPROVAL_STALE: {
        hint: 'The file or message changed after the yes; call chat_post again to show the new one.',
      },
      POLICY_BLOCKED: { hint: 'The room refused the post (members only, or banned); ask its owner.' },
      CONFLICT: {
        hint: "Someone else in the room uses this account's nick; the operator sets settings.chat.account.nick.",
      },
      UPSTREAM_ERROR: {
        retry: 'after_check',
        hint: 'The chat server failed; settle with chat_history before any retry.',
      },
      NOT_CONFIGURED: { hint: 'The operator configures the chat account in lift.config settings.chat.' },
    },
    effect: {
      class: 'visible',
      gate: 'review',
      repeat: 'The same request_id returns the first post; the message carries the request_id as its own id.',
    },
    timeout: {
      deadlineMs: given?.deadlineMs ?? 60_000,
      settle:
        "chat_history with the same to and message_id set to this call's request_id: a message with that id means the post landed",
    },
    session: { secret: 'chat_password', onExpiry: 'AUTH_REQUIRED; a person stores the new password.' },
    paths: (input) => (input.file ? [{ path: input.file, scope: fileScope(given?.roots) }] : []),
    example: {
      to: '#team',
      message: 'The weekly report is ready.',
      file: 'out/build_report/weekly.pdf',
      request_id: 'post-weekly-0001',
    },
    preview: async (input, ctx) => {
      // The chat client, the upload and the archive work load when a post is first made.
      const { nickOf, previewOf, readFileToPost } = await import('./post-message.js');
      const { withChat } = await import('./session.js');
      const { resolveTarget } = await import('./target.js');
      const settings = await chatSettings(ctx, given);
      const file = await readFileToPost(ctx, settings, input.file);
      const target = await withChat(ctx, settings, (session) => resolveTarget(session, settings, input.to));
      return previewOf(target, nickOf(settings), input.message, file);
    },
    run: async (input, ctx) => {
      const { nickOf, post, postChecks, previewOf, readFileToPost } = await import('./post-message.js');
      const { withChat } = await import('./session.js');
      const { resolveTarget } = await import('./target.js');
      const settings = await chatSettings(ctx, given);
      const file = await readFileToPost(ctx, settings, input.file);
      const posted = await withChat(ctx, settings, async (session) => {
        const target = await resolveTarget(session, settings, input.to);
        if (previewOf(target, nickOf(settings), input.message, file).digest !== ctx.approval?.digest) {
          throw new LiftError(
            'APPROVAL_STALE',
            'The message or its file changed after the approval; nothing was posted.',
            {
              outcome: 'not_started',
            },
          );
        }
        return post(ctx, session, settings, input, file);
      });
      const { target, url } = posted;
      const undo = formatHandle({
        kind: target.kind,
        to: target.jid,
        messageId: posted.messageId,
        clientId: input.request_id,
      });
      const fields = {
        to: target.jid,
        kind: target.kind,
        message_id: posted.messageId,
        client_id: input.request_id,
        ...(file && url
          ? { file: { name: file.name, size: file.bytes.length, sha256: file.sha256, url } }
          : {}),
        undo,
      };
      ctx.emit({
        type: 'audit-recorded',
        effect: 'chat_posted',
        approval_id: ctx.approval?.id,
        approved_by: ctx.approval?.by,
        server: settings.server.host ?? settings.account.jid.split('@')[1],
        from: settings.account.jid,
        ...fields,
      });
      return {
        fields,
        checks: postChecks(posted, file),
        summary: `Posted to ${target.jid}${file ? ` with ${file.name}` : ''} (message ${posted.messageId}); approved by ${ctx.approval?.by ?? 'nobody'}. Undo with chat_undo.`,
        verifiedBy: 'MAM archive by stanza-id and HTTP GET of the upload (rung 1)',
      };
    },
  });
}
