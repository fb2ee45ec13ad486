import { createHash } from 'node:crypto';
import { type AddressObject, simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';

/** The header that names a Lift draft across edits (each edit is a new message with a new UID). */
export const DRAFT_HEADER = 'X-Lift-Draft';

export interface AttachmentFile {
  name: string;
  bytes: Buffer;
}

export interface Composed {
  from: { address: string; name?: string | undefined };
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  html?: string | undefined;
  attachments: AttachmentFile[];
  draftId: string;
  messageId: string;
}

/** The message as MIME (RFC 5322), built by nodemailer: no file or URL is read while building. */
export function composeMessage(message: Composed): Promise<Buffer> {
  const composer = new MailComposer({
    from: message.from.name
      ? { name: message.from.name, address: message.from.address }
      : message.from.address,
    to: message.to,
    ...(message.cc.length > 0 ? { cc: message.cc } : {}),
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    attachments: message.attachments.map((file) => ({ filename: file.name, content: file.bytes })),
    messageId: message.messageId,
    date: new Date(),
    headers: { [DRAFT_HEADER]: message.draftId },
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}

export interface AttachmentView {
  name: string;
  size: number;
  sha256: string;
}

/** What a message says, read back from its MIME source. */
export interface MessageView {
  messageId: string;
  draftId: string | undefined;
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  date: string | undefined;
  text: string;
  hasHtml: boolean;
  bodySha256: string;
  attachments: AttachmentView[];
  /** sha256 of the whole source: what a person approved, byte for byte. */
  sourceSha256: string;
}

export const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** The body as compared: line ends made \n and trailing white space dropped (MIME may add a final newline). */
export function normaliseBody(text: string): string {
  return text.replace(/\r\n?/g, '\n').trimEnd();
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((object) =>
    object.value.flatMap((entry) =>
      entry.group ? entry.group.map((member) => member.address ?? '') : [entry.address ?? ''],
    ),
  );
}

export async function readMessage(source: Buffer): Promise<MessageView> {
  const parsed = await simpleParser(source, { skipImageLinks: true, skipTextToHtml: true });
  const draftHeader = parsed.headers.get(DRAFT_HEADER.toLowerCase());
  const text = normaliseBody(parsed.text ?? '');
  return {
    messageId: parsed.messageId ?? '',
    draftId: typeof draftHeader === 'string' ? draftHeader.trim() : undefined,
    from: addresses(parsed.from)[0] ?? '',
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    subject: parsed.subject ?? '',
    date: parsed.date?.toISOString(),
    text,
    hasHtml: typeof parsed.html === 'string' && parsed.html.length > 0,
    bodySha256: sha256(text),
    attachments: parsed.attachments.map((attachment) => ({
      name: attachment.filename ?? '(unnamed)',
      size: attachment.size,
      sha256: sha256(attachment.content),
    })),
    sourceSha256: sha256(source),
  };
}

const PREVIEW_LINES = 8;

/** What the person approving a send reads: taken from the saved message, never from the request. */
export function sendPreview(view: MessageView, folder: string, uid: number): string {
  const lines = view.text.split('\n');
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => `  | ${line.slice(0, 200)}`);
  if (lines.length > PREVIEW_LINES) shown.push(`  | … (${lines.length - PREVIEW_LINES} more lines)`);
  const attachments =
    view.attachments.length === 0
      ? 'none'
      : view.attachments
          .map((file) => `${file.name} (${file.size.toLocaleString('en-US')} bytes)`)
          .join(', ');
  return [
    `Send the saved draft ${view.draftId ?? ''} (${folder} UID ${uid}) from ${view.from}`,
    `To: ${view.to.join(', ')}`,
    `Cc: ${view.cc.join(', ') || 'none'}`,
    `Subject: ${view.subject}`,
    `Attachments: ${attachments}`,
    `Body${view.hasHtml ? ' (also as HTML)' : ''}, first lines:`,
    ...shown,
    `Draft sha256 ${view.sourceSha256.slice(0, 16)}: a change to the draft after the yes stops the send.`,
  ].join('\n');
}
