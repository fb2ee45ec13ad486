import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RealApp } from '../app.js';
import { linkCodeTree, replaceFile } from '../services/code-tree.js';
import { acquireMariaDb } from '../services/mariadb.js';
import { startPhpServer } from '../services/php-server.js';
import { bedFolder, freePort, run } from '../services/processes.js';
import { type WordPressState, wordpressState } from './rest.js';
import {
  WORDPRESS_ADMIN,
  WORDPRESS_CATEGORIES,
  WORDPRESS_POSTS,
  WORDPRESS_SITE,
  WORDPRESS_USERS,
} from './seed-data.js';

const DEBIAN_TREE = '/usr/share/wordpress';
const THEME = '/usr/share/wordpress/wp-content/themes/twentytwentythree';
const SEED_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'seed.php');
const DATABASE = { name: 'wordpress', user: 'wordpress', password: 'wp-db-pass-1' };

export interface WordPressSeed {
  users: Record<string, number>;
  categories: Record<string, number>;
  posts: Record<string, number>;
  /** Every seeded user's login and password, the administrator's included. */
  logins: Array<{ login: string; password: string; role: string }>;
  /** Outgoing mail (new-user notices, password resets) is appended here instead of being sent. */
  outbox: string;
}

export type WordPressApp = RealApp<WordPressState, WordPressSeed>;

function wpConfig(options: { origin: string; dbHost: string; content: string }): string {
  const salt = () => randomBytes(24).toString('hex');
  const keys = ['AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE'].flatMap((name) => [
    `define('${name}_KEY', '${salt()}');`,
    `define('${name}_SALT', '${salt()}');`,
  ]);
  return `<?php
// Written by the Lift test bed; Debian's wp-config.php would look in /etc/wordpress.
define('DB_NAME', '${DATABASE.name}');
define('DB_USER', '${DATABASE.user}');
define('DB_PASSWORD', '${DATABASE.password}');
define('DB_HOST', '${options.dbHost}');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
define('WP_HOME', '${options.origin}');
define('WP_SITEURL', '${options.origin}');
define('WP_CONTENT_DIR', '${options.content}');
define('WP_CONTENT_URL', '${options.origin}/wp-content');
// 'local' lets application passwords work over plain HTTP on 127.0.0.1.
define('WP_ENVIRONMENT_TYPE', 'local');
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_AUTO_UPDATE_CORE', false);
define('DISABLE_WP_CRON', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
// Themes and plugins are links into /usr/share: no editing or installing them from wp-admin.
define('DISALLOW_FILE_MODS', true);
${keys.join('\n')}
$table_prefix = 'wp_';
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`;
}

/** WordPress 6.1 from Debian: its code tree linked into a temp folder, its own config, MariaDB. */
export async function startWordPress(): Promise<WordPressApp> {
  const database = await acquireMariaDb();
  const folder = bedFolder('lift-real-apps-wordpress-');
  const stops: Array<() => Promise<void> | void> = [() => database.release(), () => folder.remove()];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    const code = join(folder.path, 'code');
    const content = join(folder.path, 'content');
    const uploads = join(content, 'uploads');
    const outbox = join(folder.path, 'outbox.mbox');
    await linkCodeTree(DEBIAN_TREE, code);
    for (const dir of [join(content, 'themes'), join(content, 'plugins'), uploads])
      mkdirSync(dir, { recursive: true });
    symlinkSync(THEME, join(content, 'themes', 'twentytwentythree'));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const { server } = database;
    await server.createDatabase(DATABASE.name, DATABASE.user, DATABASE.password);
    replaceFile(
      join(code, 'wp-config.php'),
      wpConfig({ origin, dbHost: `${server.host}:${server.port}`, content }),
    );
    const ini = { sendmail_path: `cat >> ${outbox}` };
    const seedInput = JSON.stringify({
      url: origin,
      site: WORDPRESS_SITE,
      admin: WORDPRESS_ADMIN,
      users: WORDPRESS_USERS,
      categories: WORDPRESS_CATEGORIES,
      posts: WORDPRESS_POSTS,
    });
    const php = (phase: string) =>
      run('php', ['-d', `sendmail_path=cat >> ${outbox}`, SEED_SCRIPT, code, phase], { input: seedInput });
    await php('install');
    const made = JSON.parse(await php('content')) as Omit<WordPressSeed, 'logins' | 'outbox'> & {
      applicationPassword: string;
    };
    const dump = join(folder.path, 'seed.sql');
    await server.dump(DATABASE.name, dump);
    const snapshot = await server.snapshot(DATABASE.name);
    const web = await startPhpServer({
      name: 'wordpress',
      docroot: code,
      logDir: folder.path,
      ini,
      port,
      probe: '/wp-login.php',
    });
    stops.push(() => web.stop());
    return {
      name: 'wordpress',
      baseUrl: `${origin}/`,
      origin,
      startUrl: `${origin}/wp-admin/`,
      signInUrl: `${origin}/wp-login.php`,
      credentials: { user: WORDPRESS_ADMIN.login, password: WORDPRESS_ADMIN.password },
      seed: {
        users: made.users,
        categories: made.categories,
        posts: made.posts,
        logins: [
          { login: WORDPRESS_ADMIN.login, password: WORDPRESS_ADMIN.password, role: 'administrator' },
          ...WORDPRESS_USERS.map(({ login, password, role }) => ({ login, password, role })),
        ],
        outbox,
      },
      state: wordpressState(origin, WORDPRESS_ADMIN.login, made.applicationPassword),
      dir: folder.path,
      reset: async () => {
        await snapshot.restore();
        rmSync(uploads, { recursive: true, force: true });
        mkdirSync(uploads);
        rmSync(outbox, { force: true });
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
