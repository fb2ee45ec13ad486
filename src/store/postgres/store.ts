import { openDatabase } from '../database.js';
import { SecretStore } from '../secrets.js';
import type { Store } from '../store.js';
import { PostgresApprovals } from './approvals.js';
import { PostgresCapabilities } from './capabilities.js';
import { openPool } from './connection.js';
import { PostgresLedger } from './ledger.js';
import { PostgresRegistrations } from './registrations.js';
import { PostgresRunLog } from './runs.js';
import { migratePostgres } from './schema.js';

/**
 * The shared store: the ledger, approvals, runs, capabilities and registrations in one
 * PostgreSQL database that every worker on every host uses (lift.config `store: { postgres:
 * URL }`). Secrets, files and the local indexes stay in this host's home.
 */
export async function openPostgresStore(
  home: string,
  url: string,
  env: Record<string, string | undefined> = {},
): Promise<Store> {
  const pool = openPool(url);
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const db = openDatabase(home);
  const secrets = new SecretStore(home, env);
  const ledger = new PostgresLedger(pool);
  const runs = new PostgresRunLog(pool, secrets);
  return {
    home,
    kind: 'postgres',
    db,
    ledger,
    approvals: new PostgresApprovals(pool),
    runs,
    capabilities: new PostgresCapabilities(pool),
    registrations: new PostgresRegistrations(pool),
    secrets,
    close: async () => {
      ledger.close();
      await runs.flush().catch(() => undefined);
      await pool.end();
      db.close();
    },
  };
}
