import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';

export interface PostgresServer {
  port: number;
  /** Runs SQL as the superuser over the local socket. */
  admin(sql: string): string;
  stop(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function asPostgres(program: string, args: string[]): string {
  return execFileSync('runuser', ['-u', 'postgres', '--', join(BIN, program), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/**
 * A private PostgreSQL 15 in a temp dir, run as the postgres user (we are root): password
 * (scram) on TCP, trust on its own unix socket for the test's setup.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lift-postgres-'));
  chmodSync(dir, 0o755);
  const { uid, gid } = {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
  };
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
  const port = await freePort();
  asPostgres('pg_ctl', [
    '-D',
    data,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    '-l',
    join(dir, 'log'),
    '-w',
    'start',
  ]);
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
    stop: () => {
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
