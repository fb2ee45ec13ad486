import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

const BIN = '/usr/lib/postgresql/15/bin';
const PASSWORD = `lift-shared-${process.pid}`;

export interface PostgresServer {
  port: number;
  /** Runs SQL as the superuser over the local socket. */
  admin(sql: string): string;
  /** Stops the server (fast: connections are ended) and starts it again on the same port. */
  restart(): Promise<void>;
  stop(): void;
}

export interface SharedPostgres extends PostgresServer {
  /** postgres://lift:…@HOST:PORT/lift for a host address it listens on (127.0.0.1 by default). */
  url(host?: string): string;
}

function asPostgres(program: string, args: string[]): string {
  return execFileSync('runuser', ['-u', 'postgres', '--', join(BIN, program), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/**
 * The same, without blocking this process: a client of ours in the middle of its password
 * exchange must be able to answer, or the server's fast shutdown waits for it (the
 * authentication timeout, 60 s) while a blocked event loop never answers.
 */
function asPostgresAsync(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'runuser',
      ['-u', 'postgres', '--', join(BIN, program), ...args],
      { timeout: 60_000 },
      (error) => (error ? reject(error) : resolve()),
    );
  });
}

/**
 * A private PostgreSQL 15 in a temp dir, run as the postgres user (we are root): password
 * (scram) on TCP, trust on its own unix socket for the test's setup. It listens on loopback
 * and on the addresses given (the host side of a test's network namespaces).
 */
export async function startPostgres(
  options: { listen?: string[]; settings?: string } = {},
): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lift-postgres-'));
  chmodSync(dir, 0o755);
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
  chownSync(dir, uid, gid);
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `admin-${process.pid}\n`);
  chownSync(pwfile, uid, gid);
  const data = join(dir, 'data');
  asPostgres('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    `--pwfile=${pwfile}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  // Worker hosts connect from their own addresses; everything else stays refused.
  writeFileSync(
    join(data, 'pg_hba.conf'),
    'local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\nhost all all 10.0.0.0/8 scram-sha-256\n',
  );
  const port = await freePort();
  const addresses = ['127.0.0.1', ...(options.listen ?? [])].join(',');
  const startArgs = [
    '-D',
    data,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=${addresses} -c fsync=off ${options.settings ?? ''}`,
    '-l',
    join(dir, 'log'),
    '-w',
    'start',
  ];
  asPostgres('pg_ctl', startArgs);
  return {
    port,
    admin: (sql) =>
      asPostgres('psql', [
        '-X',
        '-q',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        dir,
        '-p',
        String(port),
        '-d',
        'postgres',
        '-c',
        sql,
      ]),
    restart: async () => {
      await asPostgresAsync('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      await asPostgresAsync('pg_ctl', startArgs);
    },
    stop: () => {
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A private PostgreSQL for the shared store: a database `lift` owned by user `lift`. */
export async function startSharedPostgres(listen: string[] = []): Promise<SharedPostgres> {
  const server = await startPostgres({ listen, settings: '-c max_connections=200' });
  server.admin(`CREATE USER lift PASSWORD '${PASSWORD}'`);
  server.admin('CREATE DATABASE lift OWNER lift');
  return {
    ...server,
    url: (host = '127.0.0.1') => `postgres://lift:${PASSWORD}@${host}:${server.port}/lift`,
  };
}
