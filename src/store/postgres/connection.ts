import pg from 'pg';

/** A query runner: the pool, or one client inside a transaction. */
export interface Sql {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
}

/** Errors that mean the server went away or is starting, not that the statement was wrong. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|terminating connection|connection error|not queryable|Connection ended/i.test(
    message,
  );
}

/** How long a store operation keeps trying while the server is away (a restart takes seconds). */
export const RECONNECT_MS = 120_000;

/**
 * Runs `work` again while it fails because the server is away, with growing pauses, for at
 * most RECONNECT_MS: a PostgreSQL restart in the middle of a load loses nothing. Every
 * statement retried this way is one transaction that is safe to run twice.
 */
export async function retrying<T>(work: () => Promise<T>, until = Date.now() + RECONNECT_MS): Promise<T> {
  for (let pause = 50; ; pause = Math.min(pause * 2, 1_000)) {
    try {
      return await work();
    } catch (error) {
      if (!isConnectionError(error) || Date.now() + pause > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/**
 * A pool whose clients losing their connection (a server restart) is never an uncaught error.
 * The pool listens for errors only on idle clients, and a client handed out through the
 * promise form of `connect` has no listener until the awaiting code resumes a microtask later;
 * a fast shutdown's FATAL message can be parsed in that gap, from the same chunk as the reply
 * that freed the client. So every client gets one listener for its whole life when the pool
 * makes it; the statement in flight still fails, and is retried by `retrying`.
 */
export function openPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool makes a new one on the next query.
  });
  pool.on('connect', (client) => {
    client.on('error', () => {
      // Broken clients are not reused: their next statement fails as a connection error.
    });
  });
  return pool;
}

/** One transaction on one client, retried as a whole when the server went away. */
export function transaction<T>(pool: pg.Pool, work: (sql: Sql) => Promise<T>): Promise<T> {
  return retrying(async () => {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = isConnectionError(error);
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release(broken);
    }
  });
}
