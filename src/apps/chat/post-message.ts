import type { ToolContext } from '../../contract/context.js';
import type { Check } from '../../contract/envelope.js';
import { readFileToSend } from '../../rungs/file/file-to-send.js';
import { OOB } from './archive.js';
import { archivedById, deliver, messageTo } from './deliver.js';
import { fileScope } from './file-scope.js';
import type { ChatPostInput } from './post.js';
import { type ChatSession, xml } from './session.js';
import type { ResolvedChatSettings } from './settings.js';
import { joinRoom, resolveTarget, type Target } from './target.js';
import { servedSha256, sha256, uploadFile, uploadService } from './upload.js';

/*
 * The XMPP work of chat_post: read the file, upload it, deliver the message, read it back from
 * the archive. Loaded when chat_post is first called, not when it is declared.
 */

/** HTTP file sharing services commonly take files up to 16 MB or so. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

interface FileToPost {
  name: string;
  bytes: Buffer;
  sha256: string;
}

export async function readFileToPost(
  ctx: ToolContext,
  settings: ResolvedChatSettings,
  path: string | undefined,
) {
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
export function previewOf(target: Target, nick: string, message: string, file: FileToPost | undefined) {
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

export const nickOf = (settings: ResolvedChatSettings) =>
  settings.account.nick ?? settings.account.jid.split('@')[0] ?? 'lift';

export async function post(
  ctx: ToolContext,
  session: ChatSession,
  settings: ResolvedChatSettings,
  input: ChatPostInput,
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
export function postChecks(posted: Posted, file: FileToPost | undefined): Check[] {
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
