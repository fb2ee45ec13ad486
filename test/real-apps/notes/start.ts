import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RealApp } from '../app.js';
import { acquireMariaDb } from '../services/mariadb.js';
import { startPhpServer } from '../services/php-server.js';
import { bedFolder, run } from '../services/processes.js';
import { type NotesState, notesSchema, notesState } from './database.js';
import { NOTES, NOTES_ADMIN, NOTES_DATABASE, NOTES_USERS } from './seed-data.js';

const SITE = join(dirname(fileURLToPath(import.meta.url)), 'site');
const CKEDITOR = '/usr/share/javascript/ckeditor';

export interface NotesSeed {
  /** Note ids by title. */
  notes: Record<string, number>;
  logins: Array<{ user: string; password: string }>;
}

export type NotesApp = RealApp<NotesState, NotesSeed>;

/** PHP's own password_hash, so that the page's password_verify accepts the seed's passwords. */
async function passwordHashes(): Promise<Record<string, string>> {
  const logins = [NOTES_ADMIN, ...NOTES_USERS];
  const script = `echo json_encode(array_map(fn($p) => password_hash($p, PASSWORD_DEFAULT), json_decode(stream_get_contents(STDIN), true)));`;
  const hashes = JSON.parse(
    await run('php', ['-r', script], { input: JSON.stringify(logins.map((login) => login.password)) }),
  ) as string[];
  return Object.fromEntries(logins.map((login, index) => [login.login, hashes[index]!]));
}

/**
 * Northwind Notes: the bed's own small PHP page (site/) whose note body is Debian's CKEditor 4,
 * the classic editor in its iframe. Its docroot is a folder of links: the page's files and
 * Debian's /usr/share/javascript/ckeditor.
 */
export async function startNotes(): Promise<NotesApp> {
  const database = await acquireMariaDb();
  const folder = bedFolder('lift-real-apps-notes-');
  const stops: Array<() => Promise<void> | void> = [() => database.release(), () => folder.remove()];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    const { server } = database;
    const docroot = join(folder.path, 'docroot');
    const sessions = join(folder.path, 'sessions');
    mkdirSync(docroot);
    mkdirSync(sessions);
    for (const file of readdirSync(SITE)) symlinkSync(join(SITE, file), join(docroot, file));
    symlinkSync(CKEDITOR, join(docroot, 'ckeditor'));
    await server.createDatabase(NOTES_DATABASE.name, NOTES_DATABASE.user, NOTES_DATABASE.password);
    await server.admin(notesSchema(await passwordHashes()), NOTES_DATABASE.name);
    await server.dump(NOTES_DATABASE.name, join(folder.path, 'seed.sql'));
    const snapshot = await server.snapshot(NOTES_DATABASE.name);
    const web = await startPhpServer({
      name: 'notes',
      docroot,
      logDir: folder.path,
      ini: { 'session.save_path': sessions },
      env: {
        NOTES_DB_PORT: String(server.port),
        NOTES_DB_NAME: NOTES_DATABASE.name,
        NOTES_DB_USER: NOTES_DATABASE.user,
        NOTES_DB_PASSWORD: NOTES_DATABASE.password,
      },
      probe: '/login.php',
    });
    stops.push(() => web.stop());
    const origin = web.origin;
    return {
      name: 'notes',
      baseUrl: `${origin}/`,
      origin,
      startUrl: `${origin}/index.php`,
      signInUrl: `${origin}/login.php`,
      credentials: { user: NOTES_ADMIN.login, password: NOTES_ADMIN.password },
      seed: {
        notes: Object.fromEntries(NOTES.map((note) => [note.title, note.id])),
        logins: [NOTES_ADMIN, ...NOTES_USERS].map(({ login, password }) => ({ user: login, password })),
      },
      state: notesState(server.on(NOTES_DATABASE.name)),
      dir: folder.path,
      reset: () => snapshot.restore(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
