import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDovecot } from '../../support/mail/dovecot.js';
import { startPostfix } from '../../support/mail/postfix.js';
import type { Credentials, RealApp } from '../app.js';
import { acquireMariaDb } from '../services/mariadb.js';
import { startPhpServer } from '../services/php-server.js';
import { bedFolder, freePort, run } from '../services/processes.js';
import { type MailState, mailState } from './imap.js';
import { ALICE, BOB, MAIL_DOMAIN, rfc822, SEED_MESSAGES } from './messages.js';

const PUBLIC_HTML = '/var/lib/roundcube/public_html';
const SCHEMA = '/usr/share/roundcube/SQL/mysql.initial.sql';
const DEBIAN_CONFIG = '/etc/roundcube';
const LDA = '/usr/lib/dovecot/dovecot-lda';
const DATABASE = { name: 'roundcube', user: 'roundcube', password: 'rc-db-pass-1' };

export interface RoundcubeSeed {
  users: Credentials[];
  /** Subjects by folder, as delivered. */
  folders: Record<string, string[]>;
  imap: { host: string; port: number };
}

export type RoundcubeApp = RealApp<MailState, RoundcubeSeed>;

function config(dir: string, dbPort: number, imapPort: number, smtpPort: number): string {
  return `<?php
// Written by the Lift test bed; Debian's config (/etc/roundcube) is not read.
$config = [];
$config['db_dsnw'] = 'mysql://${DATABASE.user}:${DATABASE.password}@127.0.0.1:${dbPort}/${DATABASE.name}';
$config['imap_host'] = '127.0.0.1:${imapPort}';
// A private Postfix takes the submission (AUTH as the signed-in user, through Dovecot) and
// delivers mail for the bed's domain into Dovecot over LMTP; nothing leaves the machine.
$config['smtp_host'] = '127.0.0.1:${smtpPort}';
$config['smtp_user'] = '%u';
$config['smtp_pass'] = '%p';
$config['username_domain'] = '${MAIL_DOMAIN}';
$config['mail_domain'] = '${MAIL_DOMAIN}';
$config['des_key'] = '${randomBytes(12).toString('hex')}';
$config['product_name'] = 'Northwind Mail';
$config['plugins'] = [];
$config['skin'] = 'elastic';
$config['temp_dir'] = '${dir}/temp/';
$config['log_dir'] = '${dir}/logs/';
$config['enable_installer'] = false;
$config['enable_spellcheck'] = false;
$config['support_url'] = '';
$config['session_lifetime'] = 480;
$config['ip_check'] = false;
`;
}

/** Local delivery, as the mail system would do it: dovecot-lda into the user's folder. */
async function deliver(dovecotConfig: string): Promise<Record<string, string[]>> {
  const folders: Record<string, string[]> = {};
  for (const [index, message] of SEED_MESSAGES.entries()) {
    await run(
      LDA,
      [
        '-c',
        dovecotConfig,
        '-d',
        message.to,
        '-m',
        message.folder,
        '-o',
        'lda_mailbox_autocreate=yes',
        '-o',
        'lda_mailbox_autosubscribe=yes',
      ],
      { input: rfc822(message, index) },
    );
    const key = `${message.to} ${message.folder}`;
    folders[key] = [...(folders[key] ?? []), message.subject];
  }
  return folders;
}

/** Roundcube 1.6 from Debian over a private Dovecot (test/support/mail), its config in the bed's folder. */
export async function startRoundcube(): Promise<RoundcubeApp> {
  const database = await acquireMariaDb();
  const folder = bedFolder('lift-real-apps-roundcube-');
  const stops: Array<() => Promise<void> | void> = [() => database.release(), () => folder.remove()];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    const dovecot = await startDovecot({ users: [ALICE, BOB] });
    stops.push(() => dovecot.stop());
    const postfix = await startPostfix({ dovecot, localDomains: [MAIL_DOMAIN] });
    stops.push(() => postfix.stop());
    const dovecotConfig = join(dovecot.dir, 'dovecot.conf');
    if (!existsSync(dovecotConfig)) throw new Error(`The Dovecot harness wrote no ${dovecotConfig}.`);
    const mail = join(dovecot.dir, 'mail');
    const mailSeed = join(folder.path, 'mail-seed');
    const seeded = await deliver(dovecotConfig);
    await run('cp', ['-a', mail, mailSeed]);

    const { server } = database;
    await server.createDatabase(DATABASE.name, DATABASE.user, DATABASE.password);
    await server.admin(readFileSync(SCHEMA, 'utf8'), DATABASE.name);
    const dump = join(folder.path, 'seed.sql');
    await server.dump(DATABASE.name, dump);
    const snapshot = await server.snapshot(DATABASE.name);

    const configDir = join(folder.path, 'config');
    for (const sub of ['config', 'temp', 'logs']) mkdirSync(join(folder.path, sub));
    for (const file of ['defaults.inc.php', 'mimetypes.php'])
      symlinkSync(join(DEBIAN_CONFIG, file), join(configDir, file));
    writeFileSync(
      join(configDir, 'config.inc.php'),
      config(folder.path, server.port, dovecot.imapPort, postfix.submissionPort),
    );
    const port = await freePort();
    const web = await startPhpServer({
      name: 'roundcube',
      docroot: PUBLIC_HTML,
      logDir: folder.path,
      env: { ROUNDCUBE_CONFIG_DIR: configDir },
      port,
      probe: '/',
    });
    stops.push(() => web.stop());
    const origin = web.origin;
    return {
      name: 'roundcube',
      baseUrl: `${origin}/`,
      origin,
      startUrl: `${origin}/?_task=mail&_mbox=INBOX`,
      signInUrl: `${origin}/`,
      credentials: { ...ALICE },
      seed: {
        users: [{ ...ALICE }, { ...BOB }],
        folders: seeded,
        imap: { host: '127.0.0.1', port: dovecot.imapPort },
      },
      state: mailState('127.0.0.1', dovecot.imapPort, ALICE),
      dir: folder.path,
      reset: async () => {
        await snapshot.restore();
        rmSync(mail, { recursive: true, force: true });
        await run('cp', ['-a', mailSeed, mail]);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
