import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import type { Check } from '../../contract/envelope.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { readFileToSend } from '../../rungs/file/file-to-send.js';
import { OOB } from './archive.js';
import { archivedById, deliver, messageTo } from './deliver.js';
import { formatHandle } from './handle.js';
import { type ChatSession, withChat, xml } from './session.js';
import { chatSettings, type ResolvedChatSettings } from './settings.js';
import { joinRoom, resolveTarget, type Target } from './target.js';
import { servedSha256, sha256, uploadFile, uploadService } from './upload.js';

/** HTTP file sharing services commonly take files up to 16 MB or so. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

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
  message: z.string().min(1).max(10_000),
  file: z.string().min(1).max(4_096).optional().describe('A file to share with the message (uploaded first)'),
  request_id: RequestIdSchema,
});

const Output = z.object({
  to: z.string(),
  kind: z.enum(['room', 'person']),
  message_id: z.string().describe('The id the server gave the message in its archive'),
  client_id: z.string(),
  file: z
    .object({ name: z.string(), size: z.number().int(), sha256: z.string(), url: z.string() })
    .optional(),
  undo: z.string().describe('Pass to chat_undo to take the post back'),
});

interface FileToPost {
  name: string;
  bytes: Buffer;
  sha256: string;
}

const fileScope = (roots: readonly string[] | undefined) => ({ family: 'chat', what: 'The file', roots });

async function readFileToPost(ctx: ToolContext, settings: ResolvedChatSettings, path: string | undefined) {
  if (!path) return undefined;
  const file = await readFileToSend(
    ctx,
    path,
    { ...fileScope(settings.roots), field: 'file' },
    MAX_FILE_BYTES,
  );
  return { name: file.name, bytes: file.bytes, sha256: sha256(file.bytes) } satisfies FileToPost;
}

/** What the person approves: the target as the server names it, the text, and the file as it is on disk. */
function previewOf(target: Target, nick: string, message: string, file: FileToPost | undefined) {
  const where =
    target.kind === 'room' ? `room ${target.jid}${target.name ? ` ("${target.name}")` : ''}` : target.jid;
  const lines = message
    .split('\n')
    .slice(0, 8)
    .map((line) => `  | ${line.slice(0, 200)}`);
  const text = [
    `Post to ${where} as ${nick}:`,
    ...lines,
    ...(file
      ? [
          `File: ${file.name} (${file.bytes.length.toLocaleString('en-US')} bytes, sha256 ${file.sha256.slice(0, 16)}), uploaded to the server's file share; whoever has the link can open it.`,
        ]
      : []),
  ].join('\n');
  const digest = sha256(Buffer.from(JSON.stringify({ to: target.jid, message, file: file?.sha256 ?? null })));
  return { text, digest };
}

const nickOf = (settings: ResolvedChatSettings) =>
  settings.account.nick ?? settings.account.jid.split('@')[0] ?? 'lift';

async function post(
  ctx: ToolContext,
  session: ChatSession,
  settings: ResolvedChatSettings,
  input: z.infer<typeof Input>,
  file: FileToPost | undefined,
) {
  const target = await resolveTarget(session, settings, input.to);
  const nick = nickOf(settings);
  if (target.kind === 'room') await joinRoom(session, target.jid, nick);
  const url = file ? await uploadFile(ctx, session, await uploadService(session, settings), file) : undefined;
  const body = url ? `${input.message}\n${url}` : input.message;
  const children = [
    xml('body', {}, body),
    ...(url && file ? [xml('x', { xmlns: OOB }, xml('url', {}, url), xml('desc', {}, file.name))] : []),
  ];
  ctx.markStarted();
  const messageId = await deliver(session, target, nick, messageTo(target, input.request_id, children));
  const archived = await archivedById(session, target, messageId);
  const served = url ? await servedSha256(ctx, url) : undefined;
  return { target, url, body, messageId, archived, served };
}

type Posted = Awaited<ReturnType<typeof post>>;

/** The read-back: the archive holds the message under the server's id, and the link serves the bytes. */
function postChecks(posted: Posted, file: FileToPost | undefined): Check[] {
  const { archived, url, served } = posted;
  const checks: Check[] = [
    {
      name: `archive holds message ${posted.messageId}`,
      passed: archived !== undefined && archived.body === posted.body,
      detail: archived ? `from ${archived.from} at ${archived.stamp}` : 'not in the archive',
    },
  ];
  if (!file || !url) return checks;
  return [
    ...checks,
    { name: 'archived message links the upload', passed: archived?.url === url, detail: url },
    {
      name: `${url} serves the uploaded bytes`,
      passed: served?.sha256 === file.sha256,
      detail: served ? `${served.size} bytes, sha256 ${served.sha256.slice(0, 16)}` : 'not served',
    },
  ];
}

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
      const settings = await chatSettings(ctx, given);
      const file = await readFileToPost(ctx, settings, input.file);
      const target = await withChat(ctx, settings, (session) => resolveTarget(session, settings, input.to));
      return previewOf(target, nickOf(settings), input.message, file);
    },
    run: async (input, ctx) => {
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
        type: 'audit',
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
