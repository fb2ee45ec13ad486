import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RealApp } from '../app.js';
import { linkCodeTree, replaceFile } from '../services/code-tree.js';
import { acquireMariaDb } from '../services/mariadb.js';
import { startPhpServer } from '../services/php-server.js';
import { bedFolder, freePort } from '../services/processes.js';
import { type ShopState, shopState } from './database.js';
import { SHOP_DATABASE, SHOP_LOGIN, shopSql } from './shop-data.js';

const DEBIAN_TREE = '/usr/share/phpmyadmin';
/** Eight hours: an exploration by hand must not be signed out after phpMyAdmin's default 24 minutes. */
const SESSION_SECONDS = 8 * 3600;

export interface PhpMyAdminSeed {
  database: string;
  tables: string[];
  /** phpMyAdmin's own page size: `orders` needs more than one page. */
  rowsPerPage: number;
}

export type PhpMyAdminApp = RealApp<ShopState, PhpMyAdminSeed>;

// Debian's vendor_config.php points at /etc/phpmyadmin; the bed's copy points into its folder.
function vendorConfig(dir: string): string {
  return `<?php
declare(strict_types=1);
if (! defined('PHPMYADMIN')) {
    exit;
}
return [
    'autoloadFile' => ROOT_PATH . 'autoload.php',
    'tempDir' => '${dir}/tmp/',
    'changeLogFile' => '/usr/share/doc/phpmyadmin/changelog.gz',
    'licenseFile' => '/usr/share/doc/phpmyadmin/copyright',
    'sqlDir' => ROOT_PATH . 'sql' . DIRECTORY_SEPARATOR,
    'configFile' => '${dir}/config.inc.php',
    'customHeaderFile' => ROOT_PATH . 'config.header.inc.php',
    'customFooterFile' => ROOT_PATH . 'config.footer.inc.php',
    'versionCheckDefault' => false,
    'localePath' => ROOT_PATH . 'locale' . DIRECTORY_SEPARATOR,
    'cacheDir' => '${dir}/cache/',
    'versionSuffix' => '',
];
`;
}

function config(dir: string, port: number): string {
  return `<?php
$cfg['blowfish_secret'] = '${randomBytes(16).toString('hex')}';
$cfg['Servers'][1]['auth_type'] = 'cookie';
$cfg['Servers'][1]['host'] = '127.0.0.1';
$cfg['Servers'][1]['port'] = '${port}';
$cfg['Servers'][1]['compress'] = false;
$cfg['Servers'][1]['AllowNoPassword'] = false;
$cfg['TempDir'] = '${dir}/tmp';
$cfg['UploadDir'] = '';
$cfg['SaveDir'] = '';
$cfg['VersionCheck'] = false;
$cfg['SendErrorReports'] = 'never';
$cfg['PmaNoRelation_DisableWarning'] = true;
$cfg['LoginCookieValidity'] = ${SESSION_SECONDS};
`;
}

/** phpMyAdmin 5.2 from Debian (a linked copy of its tree), signed in as a user of the shop database. */
export async function startPhpMyAdmin(): Promise<PhpMyAdminApp> {
  const database = await acquireMariaDb();
  const folder = bedFolder('lift-real-apps-phpmyadmin-');
  const stops: Array<() => Promise<void> | void> = [() => database.release(), () => folder.remove()];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    const { server } = database;
    const code = join(folder.path, 'code');
    for (const sub of ['tmp', 'cache', 'sessions']) mkdirSync(join(folder.path, sub));
    await linkCodeTree(DEBIAN_TREE, code);
    replaceFile(join(code, 'libraries/vendor_config.php'), vendorConfig(folder.path));
    writeFileSync(join(folder.path, 'config.inc.php'), config(folder.path, server.port));
    await server.createDatabase(SHOP_DATABASE, SHOP_LOGIN.user, SHOP_LOGIN.password);
    await server.admin(shopSql(), SHOP_DATABASE);
    const dump = join(folder.path, 'seed.sql');
    await server.dump(SHOP_DATABASE, dump);
    const snapshot = await server.snapshot(SHOP_DATABASE);
    const port = await freePort();
    const web = await startPhpServer({
      name: 'phpmyadmin',
      docroot: code,
      logDir: folder.path,
      port,
      ini: {
        'session.save_path': join(folder.path, 'sessions'),
        'session.gc_maxlifetime': String(SESSION_SECONDS),
      },
      probe: '/index.php',
    });
    stops.push(() => web.stop());
    const origin = web.origin;
    return {
      name: 'phpmyadmin',
      baseUrl: `${origin}/`,
      origin,
      startUrl: `${origin}/index.php?route=/database/structure&db=${SHOP_DATABASE}`,
      signInUrl: `${origin}/index.php`,
      credentials: { user: SHOP_LOGIN.user, password: SHOP_LOGIN.password },
      seed: { database: SHOP_DATABASE, tables: ['customers', 'orders'], rowsPerPage: 25 },
      state: shopState(server),
      dir: folder.path,
      reset: () => snapshot.restore(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
