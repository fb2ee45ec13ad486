import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Daemon, startDaemon, waitForGreeting } from '../daemon.js';
import { freePort } from '../free-port.js';
import type { DovecotServer } from './dovecot.js';

/** A private Postfix 3.7 for one test file: SMTP submission with AUTH through Dovecot, delivery over LMTP. */
export interface PostfixServer {
  host: '127.0.0.1';
  submissionPort: number;
  dir: string;
  /** The mail log, for a failing test's message. */
  log(): string;
  stop(): Promise<void>;
}

const SERVICES = `pickup    unix  n - n 60 1 pickup
cleanup   unix  n - n -  0 cleanup
qmgr      unix  n - n 300 1 qmgr
rewrite   unix  - - n -  - trivial-rewrite
bounce    unix  - - n -  0 bounce
defer     unix  - - n -  0 bounce
trace     unix  - - n -  0 bounce
verify    unix  - - n -  1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n -  - proxymap
showq     unix  n - n -  - showq
error     unix  - - n -  - error
retry     unix  - - n -  - error
discard   unix  - - n -  - discard
lmtp      unix  - - n -  - lmtp
anvil     unix  - - n -  1 anvil
scache    unix  - - n -  1 scache
postlog   unix-dgram n - n - 1 postlogd
`;

function mainCf(dir: string, dovecot: DovecotServer, localDomains: string[]): string {
  return `# Written by test/support/mail/postfix.ts for one test file.
compatibility_level = 3.6
queue_directory = ${dir}/queue
data_directory = ${dir}/data
mail_owner = postfix
setgid_group = postdrop
maillog_file = ${dir}/postfix.log
maillog_file_prefixes = ${dir}
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mail.${localDomains[0]}
mydomain = ${localDomains[0]}
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
biff = no
virtual_mailbox_domains = ${localDomains.join(' ')}
virtual_transport = lmtp:inet:127.0.0.1:${dovecot.lmtpPort}
# Nothing leaves this machine: mail for any other domain is accepted and discarded.
default_transport = discard:not delivered off this machine (test harness)
relay_transport = discard:not delivered off this machine (test harness)
smtpd_tls_security_level = none
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:${dovecot.authPort}
smtpd_relay_restrictions = permit_sasl_authenticated, reject
smtpd_recipient_restrictions = permit_sasl_authenticated, reject
`;
}

/**
 * Starts Debian's Postfix from a config in a temp folder, never the system service: SMTP
 * submission on a free port of 127.0.0.1 that takes only users Dovecot authenticates,
 * local domains delivered into Dovecot over LMTP, every other domain accepted and discarded.
 */
export async function startPostfix(options: {
  dovecot: DovecotServer;
  localDomains?: string[];
  /** Lines appended to main.cf (a test's own restrictions, e.g. a slow end of DATA). */
  extraMain?: string;
}): Promise<PostfixServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lift-postfix-'));
  // Postfix's own processes run as postfix and must reach the data folder below this one.
  chmodSync(dir, 0o755);
  const conf = join(dir, 'conf');
  for (const folder of [conf, join(dir, 'queue'), join(dir, 'data')]) mkdirSync(folder);
  const postfixUid = Number(execFileSync('id', ['-u', 'postfix'], { encoding: 'utf8' }));
  chownSync(join(dir, 'data'), postfixUid, -1);
  const port = await freePort();
  writeFileSync(
    join(conf, 'main.cf'),
    mainCf(dir, options.dovecot, options.localDomains ?? ['example.test']) + (options.extraMain ?? ''),
  );
  writeFileSync(join(conf, 'master.cf'), `127.0.0.1:${port} inet n - n - - smtpd\n${SERVICES}`);
  const log = join(dir, 'postfix.log');
  let daemon: Daemon | undefined;
  const stop = async () => {
    // The master makes itself a session leader, so it is stopped by its pid file, not our group.
    const master = masterPid(dir);
    if (master) {
      try {
        process.kill(-master, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    await daemon?.stop();
    if (master) {
      try {
        process.kill(-master, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    daemon = startDaemon('/usr/sbin/postfix', ['-c', conf, 'start-fg'], { log });
    await waitForGreeting(daemon, port, /^220 /m, { log });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    host: '127.0.0.1',
    submissionPort: port,
    dir,
    log: () => readFileSync(log, 'utf8'),
    stop,
  };
}

function masterPid(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dir, 'queue', 'pid', 'master.pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 1 ? pid : undefined;
  } catch {
    return undefined;
  }
}
