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

/** A pool whose idle clients dropping (a server restart) is not an uncaught error. */
export function openPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool makes a new one on the next query.
  });
  return pool;
}

/** One transaction on one client, retried as a whole when the server went away. */
export function transaction<T>(pool: pg.Pool, work: (sql: Sql) => Promise<T>): Promise<T> {
  return retrying(async () => {
    const client = await pool.connect();
    // A connection the server ends while this client is held (a restart) fails the statement in
    // flight, which is retried; the client's own error event must not end the process.
    const ignore = () => undefined;
    client.on('error', ignore);
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
      client.off('error', ignore);
      client.release(broken);
    }
  });
}
