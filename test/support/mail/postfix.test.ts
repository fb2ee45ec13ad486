import { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DovecotServer, startDovecot } from './dovecot.js';
import { type PostfixServer, startPostfix } from './postfix.js';

let dovecot: DovecotServer;
let postfix: PostfixServer;

beforeAll(async () => {
  dovecot = await startDovecot({
    users: [
      { user: 'me@example.test', password: 'me-pass-1' },
      { user: 'ops@example.test', password: 'ops-pass-1' },
    ],
  });
  postfix = await startPostfix({ dovecot });
});
afterAll(async () => {
  await postfix?.stop();
  await dovecot?.stop();
});

const transport = (pass: string) =>
  createTransport({
    host: '127.0.0.1',
    port: postfix.submissionPort,
    secure: false,
    ignoreTLS: true,
    auth: { user: 'me@example.test', pass },
  });

async function inboxHas(messageId: string): Promise<boolean> {
  const imap = new ImapFlow({
    host: '127.0.0.1',
    port: dovecot.imapPort,
    secure: false,
    auth: { user: 'ops@example.test', pass: 'ops-pass-1' },
    logger: false,
  });
  await imap.connect();
  try {
    await imap.mailboxOpen('INBOX');
    const found = await imap.search({ header: { 'message-id': messageId } });
    return Array.isArray(found) && found.length > 0;
  } finally {
    await imap.logout();
  }
}

describe('the Postfix test harness', () => {
  it('takes authenticated submission and delivers local mail into Dovecot', async () => {
    const sent = await transport('me-pass-1').sendMail({
      from: 'me@example.test',
      to: 'ops@example.test',
      subject: 'harness',
      text: 'hello',
      messageId: '<postfix-harness-1@example.test>',
    });
    expect(sent.accepted).toEqual(['ops@example.test']);
    const bound = Date.now() + 20_000;
    while (!(await inboxHas('<postfix-harness-1@example.test>'))) {
      if (Date.now() > bound) throw new Error(`Not delivered:\n${postfix.log()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  it('accepts mail for other domains without sending it anywhere', async () => {
    const sent = await transport('me-pass-1').sendMail({
      from: 'me@example.test',
      to: 'someone@elsewhere.test',
      subject: 'harness',
      text: 'hello',
    });
    expect(sent.accepted).toEqual(['someone@elsewhere.test']);
  });

  it('refuses a wrong password', async () => {
    await expect(
      transport('wrong').sendMail({ from: 'me@example.test', to: 'ops@example.test', text: 'x' }),
    ).rejects.toMatchObject({ code: 'EAUTH' });
  });
});
