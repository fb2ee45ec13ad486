import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RealApp } from '../app.js';
import { linkCodeTree, replaceFile } from '../services/code-tree.js';
import { acquireMariaDb } from '../services/mariadb.js';
import { startPhpServer } from '../services/php-server.js';
import { bedFolder, freePort } from '../services/processes.js';
import { seedTtrss, type TtrssState, ttrssState } from './database.js';
import { TTRSS_ADMIN, TTRSS_USERS } from './seed-data.js';

const DEBIAN_TREE = '/usr/share/tt-rss/www';
const SCHEMA = '/usr/share/tt-rss/schema/ttrss_schema_mysql.sql';
const DATABASE = { name: 'ttrss', user: 'ttrss', password: 'tt-db-pass-1' };

export interface TtrssSeed {
  /** User ids by login. */
  users: Record<string, number>;
  /** The administrator's feed ids by title. */
  feeds: Record<string, number>;
  logins: Array<{ user: string; password: string }>;
}

export type TtrssApp = RealApp<TtrssState, TtrssSeed>;

// Debian's config.php is a link to /etc/tt-rss/config.php; the bed's copy has its own,
// with the options of CONFIG_VERSION 26 (include/sanity_config.php checks that each is defined).
function config(options: { origin: string; port: number; dir: string }): string {
  return `<?php
// Written by the Lift test bed.
define('DB_TYPE', 'mysql');
define('DB_HOST', '127.0.0.1');
define('DB_PORT', '${options.port}');
define('DB_USER', '${DATABASE.user}');
define('DB_NAME', '${DATABASE.name}');
define('DB_PASS', '${DATABASE.password}');
define('MYSQL_CHARSET', 'UTF8');
define('SELF_URL_PATH', '${options.origin}/');
define('SINGLE_USER_MODE', false);
define('SIMPLE_UPDATE_MODE', false);
define('PHP_EXECUTABLE', '/usr/bin/php');
define('LOCK_DIRECTORY', '${options.dir}/lock');
define('CACHE_DIR', '${options.dir}/cache');
define('ICONS_DIR', '${options.dir}/feed-icons');
define('ICONS_URL', 'feed-icons');
define('AUTH_AUTO_CREATE', false);
define('AUTH_AUTO_LOGIN', false);
define('FORCE_ARTICLE_PURGE', 0);
define('ENABLE_REGISTRATION', false);
define('REG_NOTIFY_ADDRESS', 'admin@northwind.test');
define('REG_MAX_USERS', 10);
define('SESSION_COOKIE_LIFETIME', 86400);
define('SMTP_FROM_NAME', 'Tiny Tiny RSS');
define('SMTP_FROM_ADDRESS', 'noreply@northwind.test');
define('DIGEST_SUBJECT', '[tt-rss] New headlines for last 24 hours');
define('CHECK_FOR_UPDATES', false);
define('ENABLE_GZIP_OUTPUT', false);
define('PLUGINS', 'auth_internal, note');
define('LOG_DESTINATION', 'sql');
define('CONFIG_VERSION', 26);
`;
}

/** Tiny Tiny RSS (2021) from Debian: a linked copy of its tree with the bed's config.php, MariaDB. */
export async function startTtrss(): Promise<TtrssApp> {
  const database = await acquireMariaDb();
  const folder = bedFolder('lift-real-apps-ttrss-');
  const stops: Array<() => Promise<void> | void> = [() => database.release(), () => folder.remove()];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    const { server } = database;
    const code = join(folder.path, 'code');
    await linkCodeTree(DEBIAN_TREE, code);
    for (const sub of ['lock', 'cache/images', 'cache/upload', 'cache/export', 'feed-icons'])
      mkdirSync(join(folder.path, sub), { recursive: true });
    // Feed icons are served from the tree; Debian's link points into /var/lib/tt-rss.
    rmSync(join(code, 'feed-icons'));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    replaceFile(join(code, 'config.php'), config({ origin, port: server.port, dir: folder.path }));
    await server.createDatabase(DATABASE.name, DATABASE.user, DATABASE.password);
    await server.admin(readFileSync(SCHEMA, 'utf8'), DATABASE.name);
    const query = server.on(DATABASE.name);
    const made = await seedTtrss(query);
    await server.dump(DATABASE.name, join(folder.path, 'seed.sql'));
    const snapshot = await server.snapshot(DATABASE.name);
    const web = await startPhpServer({
      name: 'ttrss',
      docroot: code,
      logDir: folder.path,
      port,
      ini: {
        'session.save_path': join(folder.path, 'lock'),
        // tt-rss refuses to start as root (its sanity check asks posix_getuid); the bed runs
        // as root, in a folder of its own, so the check is answered by the function's absence.
        disable_functions: 'posix_getuid',
      },
      probe: '/index.php',
    });
    stops.push(() => web.stop());
    return {
      name: 'ttrss',
      baseUrl: `${origin}/`,
      origin,
      startUrl: `${origin}/index.php`,
      signInUrl: `${origin}/index.php`,
      credentials: { user: TTRSS_ADMIN.login, password: TTRSS_ADMIN.password },
      seed: {
        ...made,
        logins: [TTRSS_ADMIN, ...TTRSS_USERS].map(({ login, password }) => ({ user: login, password })),
      },
      state: ttrssState(query),
      dir: folder.path,
      reset: () => snapshot.restore(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
