import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

const BIN = '/usr/lib/postgresql/15/bin';
const PASSWORD = `lift-shared-${process.pid}`;

export interface SharedPostgres {
  port: number;
  /** postgres://lift:…@HOST:PORT/lift for a host address it listens on (127.0.0.1 by default). */
  url(host?: string): string;
  /** Stops the server (fast: connections are ended) and starts it again on the same port. */
  restart(): Promise<void>;
  stop(): void;
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
 * A private PostgreSQL 15 for the shared store, in a temp dir, run as the postgres user: a
 * database `lift` owned by user `lift` (password over TCP), listening on loopback and on
 * the addresses given (the host side of the test's network namespaces).
 */
export async function startSharedPostgres(listen: string[] = []): Promise<SharedPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'lift-shared-pg-'));
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
  const addresses = ['127.0.0.1', ...listen].join(',');
  const startArgs = () => [
    '-D',
    data,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=${addresses} -c fsync=off -c max_connections=200`,
    '-l',
    join(dir, 'log'),
    '-w',
    'start',
  ];
  asPostgres('pg_ctl', startArgs());
  const psql = (sql: string) =>
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
    ]);
  psql(`CREATE USER lift PASSWORD '${PASSWORD}'`);
  psql('CREATE DATABASE lift OWNER lift');
  return {
    port,
    url: (host = '127.0.0.1') => `postgres://lift:${PASSWORD}@${host}:${port}/lift`,
    restart: async () => {
      await asPostgresAsync('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      await asPostgresAsync('pg_ctl', startArgs());
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
