import { ImapFlow, type MessageStructureObject } from 'imapflow';
import type { Credentials } from '../app.js';

/** Roundcube's state is the mailbox: read over IMAP from Dovecot (never from Roundcube's pages). */

export interface MailAttachment {
  filename: string;
  contentType: string;
  size: number;
}

export interface MailMessage {
  folder: string;
  uid: number;
  subject: string;
  from: { name: string; address: string };
  to: string[];
  date: string;
  flags: string[];
  attachments: MailAttachment[];
}

export interface MailFolder {
  path: string;
  /** \\Drafts, \\Sent, \\Trash, \\Junk, or undefined for the others. */
  specialUse?: string;
  messages: number;
}

export interface MailState {
  folders(): Promise<MailFolder[]>;
  /** Messages of one folder, oldest first. */
  messages(folder?: string): Promise<MailMessage[]>;
  /** Every message with exactly this subject, in any folder. */
  findBySubject(subject: string): Promise<MailMessage[]>;
  /** The raw text of a message part ("1" is the text of a multipart message), decoded. */
  partText(folder: string, uid: number, part?: string): Promise<string>;
  /** The same readers for another mail user. */
  as(user: Credentials): MailState;
}

function attachmentsOf(node: MessageStructureObject | undefined): MailAttachment[] {
  if (!node) return [];
  const own =
    node.disposition === 'attachment' || node.dispositionParameters?.filename
      ? [
          {
            filename: node.dispositionParameters?.filename ?? node.parameters?.name ?? '',
            contentType: node.type,
            size: node.size ?? 0,
          },
        ]
      : [];
  return [...own, ...(node.childNodes ?? []).flatMap(attachmentsOf)];
}

export function mailState(host: string, port: number, user: Credentials): MailState {
  // One connection per read: a reset replaces the Maildir, and no session may outlive it.
  const withClient = async <T>(work: (client: ImapFlow) => Promise<T>): Promise<T> => {
    const client = new ImapFlow({
      host,
      port,
      secure: false,
      auth: { user: user.user, pass: user.password },
      logger: false,
      connectionTimeout: 10_000,
    });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  };
  const messagesIn = async (client: ImapFlow, folder: string): Promise<MailMessage[]> => {
    const lock = await client.getMailboxLock(folder, { readOnly: true });
    try {
      const mailbox = client.mailbox;
      if (!mailbox || mailbox.exists === 0) return [];
      const found: MailMessage[] = [];
      for await (const message of client.fetch('1:*', {
        uid: true,
        envelope: true,
        flags: true,
        bodyStructure: true,
      })) {
        const envelope = message.envelope;
        const from = envelope?.from?.[0];
        found.push({
          folder,
          uid: message.uid,
          subject: envelope?.subject ?? '',
          from: { name: from?.name ?? '', address: from?.address ?? '' },
          to: (envelope?.to ?? []).map((address) => address.address ?? ''),
          date: envelope?.date ? new Date(envelope.date).toISOString() : '',
          flags: [...(message.flags ?? [])],
          attachments: attachmentsOf(message.bodyStructure),
        });
      }
      return found;
    } finally {
      lock.release();
    }
  };
  const folderPaths = async (client: ImapFlow) => (await client.list()).map((entry) => entry.path);
  return {
    folders: () =>
      withClient(async (client) => {
        const listed = await client.list({ statusQuery: { messages: true } });
        return listed.map((entry) => ({
          path: entry.path,
          ...(entry.specialUse ? { specialUse: entry.specialUse } : {}),
          messages: entry.status?.messages ?? 0,
        }));
      }),
    messages: (folder = 'INBOX') => withClient((client) => messagesIn(client, folder)),
    findBySubject: (subject) =>
      withClient(async (client) => {
        const found: MailMessage[] = [];
        for (const folder of await folderPaths(client)) {
          found.push(...(await messagesIn(client, folder)).filter((message) => message.subject === subject));
        }
        return found;
      }),
    partText: (folder, uid, part = '1') =>
      withClient(async (client) => {
        const lock = await client.getMailboxLock(folder, { readOnly: true });
        try {
          const { content } = await client.download(String(uid), part, { uid: true });
          if (!content) throw new Error(`No part ${part} in message ${uid} of ${folder}.`);
          const chunks: Buffer[] = [];
          for await (const chunk of content) chunks.push(chunk as Buffer);
          return Buffer.concat(chunks).toString('utf8');
        } finally {
          lock.release();
        }
      }),
    as: (other) => mailState(host, port, other),
  };
}
