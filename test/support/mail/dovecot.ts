import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Daemon, startDaemon, waitForGreeting } from '../daemon.js';
import { freePorts } from '../free-port.js';

export interface MailUser {
  /** The login and the address: `ops@example.test`. */
  user: string;
  password: string;
}

/** A private Dovecot 2.3 for one test file: IMAP, LMTP and its auth service on 127.0.0.1. */
export interface DovecotServer {
  host: '127.0.0.1';
  imapPort: number;
  /** LMTP for local delivery (Postfix hands mail to it). */
  lmtpPort: number;
  /** The auth service, for SMTP AUTH through Dovecot SASL (`smtpd_sasl_type = dovecot`). */
  authPort: number;
  dir: string;
  /** Adds a passwd-file user and waits until Dovecot takes its login (it re-reads the file once a second). */
  addUser(user: MailUser): Promise<void>;
  stop(): Promise<void>;
}

/** Mail belongs to nobody:nogroup: Dovecot refuses to touch mail as root. */
const MAIL_UID = 65534;
const MAIL_GID = 65534;

function config(dir: string, ports: { imap: number; lmtp: number; auth: number }): string {
  return `# Written by test/support/mail/dovecot.ts for one test file.
instance_name = lift-dovecot-${ports.imap}
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
listen = 127.0.0.1
protocols = imap lmtp
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# Tests try wrong passwords on purpose; the two-second default only slows them.
auth_failure_delay = 0
default_internal_user = dovecot
default_login_user = dovenull
first_valid_uid = ${MAIL_UID}
first_valid_gid = ${MAIL_GID}
mail_location = maildir:~/Maildir
mail_fsync = never
protocol lmtp {
  postmaster_address = postmaster@localhost
}
namespace inbox {
  inbox = yes
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox Junk {
    special_use = \\Junk
    auto = subscribe
  }
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = passwd-file
  args = username_format=%u ${dir}/users
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${ports.imap}
  }
  inet_listener imaps {
    port = 0
  }
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
  inet_listener pop3s {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = ${ports.lmtp}
  }
}
# Nor the penalty that grows with each failure from one address: no anvil-auth-penalty socket.
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service auth {
  inet_listener auth {
    address = 127.0.0.1
    port = ${ports.auth}
  }
}
`;
}

/**
 * Starts Dovecot from Debian (`dovecot-imapd`, `dovecot-lmtpd`) in a temp folder with its own
 * config, never as the system service: passwd-file users (plain passwords, for tests only), the
 * special-use folders Drafts, Sent, Trash and Junk, no TLS, all on free ports of 127.0.0.1.
 */
export async function startDovecot(options: { users?: MailUser[] } = {}): Promise<DovecotServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lift-dovecot-'));
  // The mail processes run as nobody and must reach their homes below this folder.
  chmodSync(dir, 0o755);
  const [imap = 0, lmtp = 0, auth = 0] = await freePorts(3);
  const usersFile = join(dir, 'users');
  writeFileSync(usersFile, '');
  chmodSync(usersFile, 0o644);
  const writeUser = ({ user, password }: MailUser) => {
    if (!/^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+$/.test(user) || /[:\n]/.test(password)) {
      throw new Error(`Not a test mail user: ${user}`);
    }
    const home = join(dir, 'mail', user);
    mkdirSync(home, { recursive: true });
    execFileSync('chown', ['-R', `${MAIL_UID}:${MAIL_GID}`, join(dir, 'mail')]);
    appendFileSync(usersFile, `${user}:{PLAIN}${password}:${MAIL_UID}:${MAIL_GID}::${home}::\n`);
  };
  for (const user of options.users ?? []) writeUser(user);
  const configFile = join(dir, 'dovecot.conf');
  writeFileSync(configFile, config(dir, { imap, lmtp, auth }));
  const log = join(dir, 'dovecot.log');
  let daemon: Daemon | undefined;
  try {
    daemon = startDaemon('/usr/sbin/dovecot', ['-F', '-c', configFile], { log });
    await waitForGreeting(daemon, imap, /^\* OK/m, { log });
    await waitForGreeting(daemon, lmtp, /^220 /m, { log });
  } catch (error) {
    await daemon?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const running = daemon;
  return {
    host: '127.0.0.1',
    imapPort: imap,
    lmtpPort: lmtp,
    authPort: auth,
    dir,
    async addUser(user) {
      writeUser(user);
      const bound = Date.now() + 10_000;
      while (!(await imapLogin(imap, user))) {
        if (Date.now() > bound) throw new Error(`Dovecot did not take the login of ${user.user}.`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async stop() {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether an IMAP LOGIN of `user` succeeds right now. */
function imapLogin(port: number, { user, password }: MailUser): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    let asked = false;
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(5_000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      if (!asked && /^\* OK/m.test(text)) {
        asked = true;
        socket.write(`a LOGIN "${user}" "${password}"\r\n`);
      }
      const answer = /^a (OK|NO|BAD)/m.exec(text);
      if (answer) done(answer[1] === 'OK');
    });
  });
}
