import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RealApp } from '../app.js';
import { acquireMariaDb } from '../services/mariadb.js';
import { startPhpServer } from '../services/php-server.js';
import { bedFolder, freePort, run } from '../services/processes.js';
import { type MediaWikiState, mediawikiState } from './api.js';
import { MEDIAWIKI_ADMIN, MEDIAWIKI_PAGES, MEDIAWIKI_SITE, MEDIAWIKI_USERS } from './seed-data.js';

const DEBIAN_TREE = '/usr/share/mediawiki';
const SEED_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'seed.php');
const DATABASE = { name: 'wiki', user: 'wiki', password: 'mw-db-pass-1' };

export interface MediaWikiSeed {
  /** Page ids by title. */
  pages: Record<string, number>;
  /** Every seeded account, the administrator's included. */
  logins: Array<{ user: string; password: string }>;
}

export type MediaWikiApp = RealApp<MediaWikiState, MediaWikiSeed>;

// MediaWiki reads LocalSettings.php from MW_CONFIG_FILE, so Debian's tree is served as it is.
function overrides(dir: string): string {
  return `
# Lift test bed: every file under the bed's folder, no mail, no shared-memory cache
# (APCu would outlive a reset of the database).
$wgMainCacheType = CACHE_NONE;
$wgSessionCacheType = CACHE_DB;
$wgParserCacheType = CACHE_DB;
$wgCacheDirectory = "${dir}/cache";
$wgUploadDirectory = "${dir}/images";
$wgTmpDirectory = "${dir}/tmp";
$wgEnableEmail = false;
$wgEnableUploads = false;
$wgShowExceptionDetails = true;
$wgPasswordPolicy['policies']['sysop']['MinimalPasswordLength'] = 8;
`;
}

async function install(dir: string, origin: string, dbServer: string): Promise<void> {
  await run('php', [
    join(DEBIAN_TREE, 'maintenance/install.php'),
    '--confpath',
    dir,
    '--dbtype',
    'mysql',
    '--dbserver',
    dbServer,
    '--dbname',
    DATABASE.name,
    '--dbuser',
    DATABASE.user,
    '--dbpass',
    DATABASE.password,
    '--installdbuser',
    DATABASE.user,
    '--installdbpass',
    DATABASE.password,
    '--server',
    origin,
    '--scriptpath',
    '',
    '--lang',
    'en',
    '--pass',
    MEDIAWIKI_ADMIN.password,
    '--skins',
    'Vector',
    MEDIAWIKI_SITE,
    MEDIAWIKI_ADMIN.user,
  ]);
  appendFileSync(join(dir, 'LocalSettings.php'), overrides(dir));
}

/** MediaWiki 1.39 from Debian, served from /usr/share/mediawiki with its own LocalSettings.php. */
export async function startMediaWiki(): Promise<MediaWikiApp> {
  const database = await acquireMariaDb();
  const folder = bedFolder('lift-real-apps-mediawiki-');
  const stops: Array<() => Promise<void> | void> = [() => database.release(), () => folder.remove()];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    for (const sub of ['cache', 'images', 'tmp']) mkdirSync(join(folder.path, sub));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const { server } = database;
    await server.createDatabase(DATABASE.name, DATABASE.user, DATABASE.password);
    await install(folder.path, origin, `${server.host}:${server.port}`);
    const env = { MW_INSTALL_PATH: DEBIAN_TREE, MW_CONFIG_FILE: join(folder.path, 'LocalSettings.php') };
    const made = JSON.parse(
      await run('php', [SEED_SCRIPT], {
        input: JSON.stringify({
          admin: MEDIAWIKI_ADMIN.user,
          users: MEDIAWIKI_USERS,
          pages: MEDIAWIKI_PAGES,
        }),
        env: { ...process.env, ...env },
      }),
    ) as { pages: Record<string, number> };
    const dump = join(folder.path, 'seed.sql');
    await server.dump(DATABASE.name, dump);
    const snapshot = await server.snapshot(DATABASE.name);
    const web = await startPhpServer({
      name: 'mediawiki',
      docroot: DEBIAN_TREE,
      logDir: folder.path,
      env,
      port,
      probe: '/index.php?title=Special:Version',
    });
    stops.push(() => web.stop());
    return {
      name: 'mediawiki',
      baseUrl: `${origin}/`,
      origin,
      startUrl: `${origin}/index.php/Main_Page`,
      signInUrl: `${origin}/index.php?title=Special:UserLogin`,
      credentials: { user: MEDIAWIKI_ADMIN.user, password: MEDIAWIKI_ADMIN.password },
      seed: {
        pages: made.pages,
        logins: [MEDIAWIKI_ADMIN, ...MEDIAWIKI_USERS].map((login) => ({ ...login })),
      },
      state: mediawikiState(origin),
      dir: folder.path,
      reset: () => snapshot.restore(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
