/** One email test file's world: a private Dovecot and Postfix, two accounts, and the email tools over them. */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { type EmailSettings, emailTools } from '../../../src/apps/email/tools.js';
import { type DovecotServer, startDovecot } from '../../support/mail/dovecot.js';
import { type PostfixServer, startPostfix } from '../../support/mail/postfix.js';
import { tempDir } from '../../support/temp.js';

/** Passwords are canaries: no envelope, log line or file Lift writes may contain them. */
export const ME = { user: 'me@example.test', password: 'canary-mail-me-4e1f9b2a' };
export const OPS = { user: 'ops@example.test', password: 'canary-mail-ops-8d3c6a7e' };

export interface MailWorld {
  dovecot: DovecotServer;
  postfix: PostfixServer;
  /** The folder attachments come from (the tools' root). */
  work: string;
  settings(extra?: Partial<EmailSettings>): EmailSettings;
  tools(extra?: Partial<EmailSettings>): ReturnType<typeof emailTools>;
  /** The secrets a runtime gets, as LIFT_SECRET_* variables. */
  env: Record<string, string>;
  /** Reads a folder of an account directly over IMAP, not through Lift. */
  uidsWith(account: { user: string; password: string }, folder: string, messageId: string): Promise<number[]>;
  stop(): Promise<void>;
}

export async function startMailWorld(options: { postfixMain?: string } = {}): Promise<MailWorld> {
  const dovecot = await startDovecot({ users: [ME, OPS] });
  let postfix: PostfixServer;
  try {
    postfix = await startPostfix({
      dovecot,
      ...(options.postfixMain ? { extraMain: options.postfixMain } : {}),
    });
  } catch (error) {
    await dovecot.stop();
    throw error;
  }
  const work = tempDir('lift-mail-work-');
  const settings = (extra: Partial<EmailSettings> = {}): EmailSettings => ({
    account: { address: ME.user, name: 'Lift Test', passwordSecret: 'email_password' },
    imap: { host: '127.0.0.1', port: dovecot.imapPort, tls: 'none' },
    smtp: { host: '127.0.0.1', port: postfix.submissionPort, tls: 'none' },
    roots: [work.path],
    deliveryMailboxes: [{ address: OPS.user, passwordSecret: 'ops_mail_password' }],
    deliveryWaitMs: 20_000,
    ...extra,
  });
  return {
    dovecot,
    postfix,
    work: work.path,
    settings,
    tools: (extra) => emailTools(settings(extra)),
    env: { LIFT_SECRET_EMAIL_PASSWORD: ME.password, LIFT_SECRET_OPS_MAIL_PASSWORD: OPS.password },
    async uidsWith(account, folder, messageId) {
      const client = new ImapFlow({
        host: '127.0.0.1',
        port: dovecot.imapPort,
        secure: false,
        doSTARTTLS: false,
        auth: { user: account.user, pass: account.password },
        logger: false,
      });
      await client.connect();
      try {
        await client.mailboxOpen(folder);
        return (await client.search({ header: { 'message-id': messageId } }, { uid: true })) || [];
      } finally {
        await client.logout();
      }
    },
    async stop() {
      await postfix.stop();
      await dovecot.stop();
      work.remove();
    },
  };
}

/** Every file Lift wrote under its home, as text (the database and the secret store itself aside). */
export function writtenFiles(home: string): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.startsWith('lift.db') && entry.name !== 'secrets.json') {
        texts.push(readFileSync(path, 'utf8'));
      }
    }
  };
  walk(home);
  return texts.join('\n');
}
