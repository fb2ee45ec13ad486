import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DovecotServer, startDovecot } from './dovecot.js';

let dovecot: DovecotServer;

beforeAll(async () => {
  dovecot = await startDovecot({ users: [{ user: 'ops@example.test', password: 'ops-pass-1' }] });
});
afterAll(async () => {
  await dovecot?.stop();
});

/** Speaks a few lines of IMAP or LMTP by hand; each answer is read up to the line `until` matches. */
async function session(port: number, greeting: RegExp) {
  const socket: Socket = connect({ host: '127.0.0.1', port });
  let buffer = '';
  const waiters: Array<() => void> = [];
  socket.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    for (const wake of waiters.splice(0)) wake();
  });
  const read = async (until: RegExp): Promise<string> => {
    const bound = Date.now() + 10_000;
    while (!until.test(buffer)) {
      if (Date.now() > bound) throw new Error(`No answer matching ${until}: ${buffer}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    const text = buffer;
    buffer = '';
    return text;
  };
  await read(greeting);
  return {
    send: (line: string, until: RegExp) => {
      socket.write(`${line}\r\n`);
      return read(until);
    },
    close: () => socket.destroy(),
  };
}

describe('the Dovecot test harness', () => {
  it('serves IMAP to a passwd-file user with the special-use folders', async () => {
    const imap = await session(dovecot.imapPort, /^\* OK/m);
    expect(await imap.send('a LOGIN ops@example.test ops-pass-1', /^a /m)).toMatch(/^a OK/m);
    const list = await imap.send('b LIST "" "*" RETURN (SPECIAL-USE)', /^b /m);
    for (const folder of ['Drafts', 'Sent', 'Trash', 'Junk']) {
      expect(list).toMatch(new RegExp(`\\\\${folder}\\) "." ${folder}\\r`));
    }
    imap.close();
  });

  it('refuses a wrong password', async () => {
    const imap = await session(dovecot.imapPort, /^\* OK/m);
    expect(await imap.send('a LOGIN ops@example.test wrong', /^a /m)).toMatch(/^a NO/m);
    imap.close();
  });

  it('delivers over LMTP into the inbox of a user added while it runs', async () => {
    await dovecot.addUser({ user: 'late@example.test', password: 'late-pass-2' });
    const lmtp = await session(dovecot.lmtpPort, /^220 /m);
    await lmtp.send('LHLO test', /^250 /m);
    await lmtp.send('MAIL FROM:<ops@example.test>', /^250 /m);
    expect(await lmtp.send('RCPT TO:<late@example.test>', /^\d{3} /m)).toMatch(/^250 /m);
    await lmtp.send('DATA', /^354 /m);
    const delivered = await lmtp.send(
      'Subject: hello\r\nMessage-ID: <harness-1@example.test>\r\n\r\nbody\r\n.',
      /^\d{3} /m,
    );
    expect(delivered).toMatch(/^250 /m);
    lmtp.close();

    const imap = await session(dovecot.imapPort, /^\* OK/m);
    await imap.send('a LOGIN late@example.test late-pass-2', /^a /m);
    await imap.send('b SELECT INBOX', /^b /m);
    const found = await imap.send('c SEARCH HEADER Message-ID <harness-1@example.test>', /^c /m);
    expect(found).toMatch(/^\* SEARCH 1\r?$/m);
    imap.close();
  });
});
