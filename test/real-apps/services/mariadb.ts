import { chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Connection, createConnection, type RowDataPacket } from 'mysql2/promise';
import { bedFolder, freePort, run, type Service, startService, waitFor } from './processes.js';
import { type DatabaseSnapshot, snapshotDatabase } from './snapshot.js';

/** The bed's own superuser over TCP, for the state readers (root is unix_socket-only). */
const BED_USER = { user: 'bed', password: 'bed-db-pass' };

// Small buffers and no durability: the bed is rebuilt from its seed, never recovered.
const SERVER_OPTIONS = [
  '--skip-log-bin',
  '--skip-name-resolve',
  '--innodb-log-file-size=16M',
  '--innodb-buffer-pool-size=128M',
  '--innodb-flush-log-at-trx-commit=0',
  '--innodb-doublewrite=0',
  '--character-set-server=utf8mb4',
  '--collation-server=utf8mb4_unicode_ci',
  '--max-connections=200',
];

/** One private MariaDB server: its own datadir, socket and port, run as the mysql user. */
export interface MariaDb {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly socket: string;
  /** Runs SQL as root over the server's own socket; returns tab-separated rows. */
  admin(sql: string, database?: string): Promise<string>;
  /** Creates a database and a user that may do anything in it (and only there). */
  createDatabase(name: string, user: string, password: string): Promise<void>;
  /** Writes a dump of `database` to `file`. */
  dump(database: string, file: string): Promise<void>;
  /** A copy of `database` as it is now; `restore()` brings the database back to it in well under a second. */
  snapshot(database: string): Promise<DatabaseSnapshot>;
  /** Rows of one query as the bed's superuser, with `?` placeholders; tables named database.table. */
  query<T extends RowDataPacket = RowDataPacket>(sql: string, params?: unknown[]): Promise<T[]>;
  /** A query function whose unqualified table names are those of `database`. */
  on(
    database: string,
  ): <T extends RowDataPacket = RowDataPacket>(sql: string, params?: unknown[]) => Promise<T[]>;
  stop(): Promise<void>;
}

async function mysqlIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'mysql']), run('id', ['-g', 'mysql'])]);
  return { uid: Number(uid), gid: Number(gid) };
}

function quoteIdentifier(name: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Unsafe SQL identifier: ${name}`);
  return `\`${name}\``;
}

function quoteString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export async function startMariaDb(): Promise<MariaDb> {
  const folder = bedFolder('lift-real-apps-mariadb-');
  const data = join(folder.path, 'data');
  const runDir = join(folder.path, 'run');
  let server: Service | undefined;
  let connection: Connection | undefined;
  try {
    const { uid, gid } = await mysqlIds();
    for (const dir of [data, runDir]) {
      mkdirSync(dir);
      chownSync(dir, uid, gid);
    }
    await run('mariadb-install-db', [
      '--no-defaults',
      '--user=mysql',
      `--datadir=${data}`,
      `--tmpdir=${runDir}`,
      '--auth-root-authentication-method=socket',
      '--skip-test-db',
      ...SERVER_OPTIONS,
    ]);
    const port = await freePort();
    const socket = join(runDir, 'mysql.sock');
    server = startService(
      'mariadb',
      'mariadbd',
      [
        '--no-defaults',
        '--user=mysql',
        `--datadir=${data}`,
        `--tmpdir=${runDir}`,
        `--socket=${socket}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--pid-file=${join(runDir, 'mariadb.pid')}`,
        ...SERVER_OPTIONS,
      ],
      { logFile: join(folder.path, 'mariadb.log') },
    );
    const admin = (sql: string, database?: string) =>
      run(
        'mariadb',
        ['--no-defaults', `--socket=${socket}`, '-uroot', '--batch', '-N', ...(database ? [database] : [])],
        {
          input: sql,
        },
      );
    await waitFor('MariaDB to accept connections', () => admin('SELECT 1').then(() => true), {
      timeoutMs: 60_000,
      service: server,
    });
    await admin(
      `CREATE USER '${BED_USER.user}'@'127.0.0.1' IDENTIFIED BY '${BED_USER.password}';
       GRANT ALL ON *.* TO '${BED_USER.user}'@'127.0.0.1' WITH GRANT OPTION;`,
    );
    const reader = await createConnection({
      host: '127.0.0.1',
      port,
      ...BED_USER,
      multipleStatements: false,
    });
    connection = reader;
    const running = server;
    const perDatabase: Connection[] = [];
    return {
      host: '127.0.0.1',
      port,
      socket,
      admin,
      createDatabase: async (name, user, password) => {
        const database = quoteIdentifier(name);
        await admin(
          `CREATE DATABASE ${database} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
           CREATE USER ${quoteString(user)}@'127.0.0.1' IDENTIFIED BY ${quoteString(password)};
           GRANT ALL ON ${database}.* TO ${quoteString(user)}@'127.0.0.1';`,
        );
      },
      dump: async (database, file) => {
        await run(
          'mariadb-dump',
          [
            '--no-defaults',
            `--socket=${socket}`,
            '-uroot',
            '--single-transaction',
            '--skip-dump-date',
            '--routines',
            '--triggers',
            database,
          ],
          { outputFile: file },
        );
      },
      snapshot: async (database) => {
        const connection = await createConnection({ host: '127.0.0.1', port, ...BED_USER });
        perDatabase.push(connection);
        return snapshotDatabase(connection, database);
      },
      query: async <T extends RowDataPacket>(sql: string, params: unknown[] = []) => {
        const [rows] = await reader.query<T[]>(sql, params);
        return rows;
      },
      on: (database) => {
        const opened = createConnection({ host: '127.0.0.1', port, ...BED_USER, database });
        opened.then((connection) => perDatabase.push(connection)).catch(() => undefined);
        return async <T extends RowDataPacket>(sql: string, params: unknown[] = []) => {
          const [rows] = await (await opened).query<T[]>(sql, params);
          return rows;
        };
      },
      stop: async () => {
        for (const connection of perDatabase) await connection.end().catch(() => undefined);
        await reader.end().catch(() => undefined);
        await running.stop();
        folder.remove();
      },
    };
  } catch (error) {
    await connection?.end().catch(() => undefined);
    await server?.stop();
    folder.remove();
    throw error;
  }
}

let shared: { server: Promise<MariaDb>; users: number } | undefined;

/**
 * The one MariaDB that the apps of this process share, a database each; started by the
 * first app and stopped when the last one releases it.
 */
export async function acquireMariaDb(): Promise<{ server: MariaDb; release: () => Promise<void> }> {
  if (!shared) shared = { server: startMariaDb(), users: 0 };
  const entry = shared;
  entry.users++;
  let server: MariaDb;
  try {
    server = await entry.server;
  } catch (error) {
    if (shared === entry) shared = undefined;
    throw error;
  }
  let released = false;
  return {
    server,
    release: async () => {
      if (released) return;
      released = true;
      entry.users--;
      if (entry.users > 0) return;
      if (shared === entry) shared = undefined;
      await server.stop();
    },
  };
}
