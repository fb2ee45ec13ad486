import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealApp } from '../app.js';
import { linkCodeTree, replaceFile } from '../services/code-tree.js';
import { acquireMariaDb, type MariaDb } from '../services/mariadb.js';
import { bedFolder, freePort, run, startService, waitFor } from '../services/processes.js';
import { type RedmineApi, type RedmineState, redmineApi, redmineState } from './rest.js';
import { REDMINE_ADMIN, REDMINE_ISSUES, REDMINE_PROJECTS, REDMINE_SITE, REDMINE_USERS } from './seed-data.js';

const DEBIAN_TREE = '/usr/share/redmine';
const DATABASE = { name: 'redmine', user: 'redmine', password: 'rm-db-pass-1' };
/** Debian's multi-tenancy: the instance's config, logs, files and tmp live under code/instances/bed. */
const INSTANCE = 'bed';

export interface RedmineSeed {
  /** Issue ids by subject. */
  issues: Record<string, number>;
  /** Project ids by identifier. */
  projects: Record<string, number>;
  /** User ids by login, the administrator's included. */
  users: Record<string, number>;
  /** Every seeded login and its password. */
  logins: Array<{ user: string; password: string }>;
}

export type RedmineApp = RealApp<RedmineState, RedmineSeed>;

function databaseYml(server: MariaDb): string {
  return `production:
  adapter: mysql2
  database: ${DATABASE.name}
  host: ${server.host}
  port: ${server.port}
  username: ${DATABASE.user}
  password: ${DATABASE.password}
  encoding: utf8mb4
`;
}

/**
 * A linked copy of Debian's tree whose instance folder is the bed's: Debian's own points at
 * /var/lib/redmine and /etc/redmine. The Gemfile looks for database.yml files (to pick the
 * adapter's gem) under /usr/share/redmine: the copy's looks in the copy.
 */
async function codeTree(dir: string, server: MariaDb): Promise<{ code: string; instance: string }> {
  const code = join(dir, 'code');
  await linkCodeTree(DEBIAN_TREE, code);
  for (const link of ['instances', 'Gemfile.lock', 'config/database.yml']) rmSync(join(code, link));
  const gemfile = readFileSync(join(DEBIAN_TREE, 'Gemfile'), 'utf8');
  if (!gemfile.includes(`'${DEBIAN_TREE}/{config,instances/*/config}/database.yml'`))
    throw new Error(`Debian's Redmine Gemfile no longer finds its database.yml where the bed expects it.`);
  // Rails' own server needs WEBrick in the bundle (Debian serves Redmine through Passenger).
  replaceFile(
    join(code, 'Gemfile'),
    `${gemfile.replaceAll(`'${DEBIAN_TREE}/`, `'${code}/`)}\ngem 'webrick'\n`,
  );
  const instance = join(code, 'instances', INSTANCE);
  for (const sub of ['config', 'log', 'tmp/pids', 'files', 'public/plugin_assets'])
    mkdirSync(join(instance, sub), { recursive: true });
  writeFileSync(join(instance, 'config', 'database.yml'), databaseYml(server));
  writeFileSync(join(instance, 'config', 'secret_key.txt'), randomBytes(32).toString('hex'));
  return { code, instance };
}

function railsEnv(): NodeJS.ProcessEnv {
  return { ...process.env, RAILS_ENV: 'production', REDMINE_INSTANCE: INSTANCE, REDMINE_LANG: 'en' };
}

/**
 * Redmine's ~300 migrations and its default data take a minute or two on a loaded machine,
 * and they depend on nothing but Debian's package: the result is dumped once per package
 * version into a cache folder and loaded from there by later starts. Only that schema is
 * cached; every start seeds its own database in its own folder.
 */
async function migrate(server: MariaDb, code: string): Promise<void> {
  const version = (await run('dpkg-query', ['-W', `-f=\${Version}`, 'redmine'])).trim();
  const cacheDir = join(tmpdir(), 'lift-real-apps-cache');
  const cached = join(cacheDir, `redmine-${version.replace(/[^A-Za-z0-9.+~-]/g, '_')}-schema.sql`);
  if (existsSync(cached)) {
    await run('mariadb', ['--no-defaults', `--socket=${server.socket}`, '-uroot', DATABASE.name], {
      inputFile: cached,
    });
    return;
  }
  // Two runs: in the migrating one, the loader would see the models as they were before.
  for (const task of ['db:migrate', 'redmine:load_default_data'])
    await run('bundle', ['exec', 'rake', task], { cwd: code, env: railsEnv(), timeoutMs: 600_000 });
  const [trackers] = await server.query(`SELECT COUNT(*) AS n FROM ${DATABASE.name}.trackers`);
  if (Number(trackers?.n) === 0)
    throw new Error("Redmine's default data (trackers, roles, statuses) did not load.");
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${cached}.${process.pid}.part`;
  await server.dump(DATABASE.name, partial);
  renameSync(partial, cached);
}

/** Redmine's password hash: SHA1(salt + SHA1(password)), hex. */
function hashedPassword(password: string, salt: string): string {
  const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
  return sha1(salt + sha1(password));
}

/** What the REST API cannot set: the administrator's password, an API key, the API itself. */
async function prepare(server: MariaDb, apiKey: string): Promise<void> {
  const salt = randomBytes(16).toString('hex');
  const query = server.on(DATABASE.name);
  await query(
    `UPDATE users SET hashed_password = ?, salt = ?, must_change_passwd = 0, passwd_changed_on = NOW()
      WHERE login = ?`,
    [hashedPassword(REDMINE_ADMIN.password, salt), salt, REDMINE_ADMIN.login],
  );
  await query(
    `INSERT INTO tokens (user_id, action, value, created_on, updated_on)
     SELECT id, 'api', ?, NOW(), NOW() FROM users WHERE login = ?`,
    [apiKey, REDMINE_ADMIN.login],
  );
  const settings: Array<[string, string]> = [
    ['rest_api_enabled', '1'],
    ['login_required', '1'],
    ['app_title', REDMINE_SITE],
    ['default_language', 'en'],
    // Times as 1.50, not 1:30: the estimate the seed writes reads back as written.
    ['timespan_format', 'decimal'],
  ];
  for (const [name, value] of settings)
    await query('INSERT INTO settings (name, value, updated_on) VALUES (?, ?, NOW())', [name, value]);
}

interface Named {
  id: number;
  name: string;
}

/** Seeds through Redmine's REST API, as an administrator's script would. */
async function seed(api: RedmineApi): Promise<Omit<RedmineSeed, 'logins'>> {
  const list = async (path: string, key: string) =>
    new Map(
      ((await api.get<Record<string, Named[]>>(path))?.[key] ?? []).map((item) => [item.name, item.id]),
    );
  const [roles, trackers, statuses] = await Promise.all([
    list('/roles.json', 'roles'),
    list('/trackers.json', 'trackers'),
    list('/issue_statuses.json', 'issue_statuses'),
  ]);
  const id = (map: Map<string, number>, name: string) => {
    const found = map.get(name);
    if (found === undefined) throw new Error(`Redmine has no ${name}`);
    return found;
  };
  const users: Record<string, number> = {};
  const admin = await api.get<{ user: { id: number } }>('/users/current.json');
  users[REDMINE_ADMIN.login] = admin!.user.id;
  for (const user of REDMINE_USERS) {
    const made = await api.send<{ user: { id: number } }>('POST', '/users.json', {
      user: { ...user, must_change_passwd: false },
    });
    users[user.login] = made.user.id;
  }
  const projects: Record<string, number> = {};
  for (const project of REDMINE_PROJECTS) {
    const made = await api.send<{ project: { id: number } }>('POST', '/projects.json', {
      project: {
        name: project.name,
        identifier: project.identifier,
        description: project.description,
        is_public: false,
        tracker_ids: [...trackers.values()],
      },
    });
    projects[project.identifier] = made.project.id;
    for (const member of project.members) {
      await api.send('POST', `/projects/${project.identifier}/memberships.json`, {
        membership: { user_id: users[member.login], role_ids: [id(roles, member.role)] },
      });
    }
  }
  const issues: Record<string, number> = {};
  for (const issue of REDMINE_ISSUES) {
    const made = await api.send<{ issue: { id: number } }>('POST', '/issues.json', {
      issue: {
        project_id: projects[issue.project],
        tracker_id: id(trackers, issue.tracker),
        subject: issue.subject,
        description: issue.description,
        ...(issue.assignee ? { assigned_to_id: users[issue.assignee] } : {}),
        ...(issue.estimatedHours ? { estimated_hours: issue.estimatedHours } : {}),
      },
    });
    issues[issue.subject] = made.issue.id;
    // A new issue starts as New; the administrator moves it on as the workflow allows.
    if (issue.status !== 'New')
      await api.send('PUT', `/issues/${made.issue.id}.json`, {
        issue: { status_id: id(statuses, issue.status) },
      });
  }
  return { issues, projects, users };
}

/** Redmine 5 from Debian on Rails' own server (WEBrick), its instance folder in the bed's. */
export async function startRedmine(): Promise<RedmineApp> {
  const database = await acquireMariaDb();
  const folder = bedFolder('lift-real-apps-redmine-');
  const stops: Array<() => Promise<void> | void> = [() => database.release(), () => folder.remove()];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    const { server } = database;
    const { code, instance } = await codeTree(folder.path, server);
    await server.createDatabase(DATABASE.name, DATABASE.user, DATABASE.password);
    await migrate(server, code);
    const apiKey = randomBytes(20).toString('hex');
    await prepare(server, apiKey);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const web = startService(
      'redmine (rails server)',
      'bundle',
      [
        'exec',
        'rails',
        'server',
        '-b',
        '127.0.0.1',
        '-p',
        String(port),
        '-P',
        join(instance, 'tmp/pids/server.pid'),
      ],
      {
        cwd: code,
        env: { ...railsEnv(), RAILS_SERVE_STATIC_FILES: '1' },
        logFile: join(folder.path, 'redmine-rails.log'),
      },
    );
    stops.push(() => web.stop());
    await waitFor(
      'Redmine to answer /login',
      async () => {
        const response = await fetch(`${origin}/login`, { redirect: 'manual' });
        await response.arrayBuffer();
        return response.status === 200 ? true : undefined;
      },
      { timeoutMs: 240_000, service: web },
    );
    const api = redmineApi(origin, apiKey);
    const made = await seed(api);
    await server.dump(DATABASE.name, join(folder.path, 'seed.sql'));
    const snapshot = await server.snapshot(DATABASE.name);
    return {
      name: 'redmine',
      baseUrl: `${origin}/`,
      origin,
      startUrl: `${origin}/projects`,
      signInUrl: `${origin}/login`,
      credentials: { user: REDMINE_ADMIN.login, password: REDMINE_ADMIN.password },
      seed: {
        ...made,
        logins: [REDMINE_ADMIN, ...REDMINE_USERS].map(({ login, password }) => ({ user: login, password })),
      },
      state: redmineState(api),
      dir: folder.path,
      reset: () => snapshot.restore(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
