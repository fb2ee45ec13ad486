/**
 * The real-app test bed: third-party web applications installed from Debian, each started in
 * a temporary folder on free ports of 127.0.0.1, seeded, resettable, with state readers that
 * use the application's own interfaces. See README.md beside this file.
 *
 *   const app = await startApp('wordpress');
 *   await app.state.userByLogin('jdoe');   // WordPress REST API
 *   await app.reset();                     // back to the seed
 *   await app.stop();
 */
import type { AppName } from './app.js';
import { type MediaWikiApp, startMediaWiki } from './mediawiki/start.js';
import { type NotesApp, startNotes } from './notes/start.js';
import { type PhpMyAdminApp, startPhpMyAdmin } from './phpmyadmin/start.js';
import { type RedmineApp, startRedmine } from './redmine/start.js';
import { type RoundcubeApp, startRoundcube } from './roundcube/start.js';
import { startTtrss, type TtrssApp } from './ttrss/start.js';
import { startWordPress, type WordPressApp } from './wordpress/start.js';

export type { AppName, Credentials, RealApp } from './app.js';
export { APP_NAMES } from './app.js';
export type { MediaWikiMove, MediaWikiPage, MediaWikiState } from './mediawiki/api.js';
export type { MediaWikiApp, MediaWikiSeed } from './mediawiki/start.js';
export type { Note, NotesState } from './notes/database.js';
export type { NotesApp, NotesSeed } from './notes/start.js';
export type { ShopState } from './phpmyadmin/database.js';
export type { PhpMyAdminApp, PhpMyAdminSeed } from './phpmyadmin/start.js';
export type { RedmineIssue, RedmineProject, RedmineState, RedmineUser } from './redmine/rest.js';
export type { RedmineApp, RedmineSeed } from './redmine/start.js';
export type { MailAttachment, MailFolder, MailMessage, MailState } from './roundcube/imap.js';
export type { RoundcubeApp, RoundcubeSeed } from './roundcube/start.js';
export type { TtrssArticle, TtrssFeed, TtrssLabel, TtrssState } from './ttrss/database.js';
export type { TtrssApp, TtrssSeed } from './ttrss/start.js';
export type { WordPressCategory, WordPressPost, WordPressState, WordPressUser } from './wordpress/rest.js';
export type { WordPressApp, WordPressSeed } from './wordpress/start.js';

export interface Apps {
  wordpress: WordPressApp;
  mediawiki: MediaWikiApp;
  phpmyadmin: PhpMyAdminApp;
  roundcube: RoundcubeApp;
  redmine: RedmineApp;
  ttrss: TtrssApp;
  notes: NotesApp;
}

const STARTERS: { [N in AppName]: () => Promise<Apps[N]> } = {
  wordpress: startWordPress,
  mediawiki: startMediaWiki,
  phpmyadmin: startPhpMyAdmin,
  roundcube: startRoundcube,
  redmine: startRedmine,
  ttrss: startTtrss,
  notes: startNotes,
};

/**
 * Installs nothing (scripts/setup.sh did), seeds and starts one application. Apps started in
 * the same process share one MariaDB server, a database each.
 */
export function startApp<N extends AppName>(name: N): Promise<Apps[N]> {
  const start = STARTERS[name] as (() => Promise<Apps[N]>) | undefined;
  if (!start)
    return Promise.reject(
      new Error(`No app '${name}' in the bed; choose one of ${Object.keys(STARTERS).join(', ')}.`),
    );
  return start();
}

export function isAppName(name: string): name is AppName {
  return Object.hasOwn(STARTERS, name);
}
