import { Approvals } from './approvals.js';
import type { Awaitable } from './awaitable.js';
import { CapabilityFiles } from './capabilities.js';
import { type Db, openDatabase } from './database.js';
import { maskInput } from './held-input.js';
import { Ledger } from './ledger.js';
import type {
  ApprovalRecords,
  CapabilityRecords,
  LedgerRecords,
  RegistrationRecords,
  RunRecords,
} from './records.js';
import { Registrations } from './registrations.js';
import { RunLog } from './runs.js';
import { SecretStore } from './secrets.js';

/**
 * Everything Lift remembers. The shared records (ledger, approvals, runs, capabilities and
 * their registrations) are in one SQLite file by default, or in PostgreSQL for many workers on
 * many hosts (postgres/store.ts); secrets, files and the local indexes in `db` stay in the
 * home of each host.
 */
export interface Store {
  readonly home: string;
  /** Where the shared records are: `sqlite` (the home's lift.db) or `postgres`. */
  readonly kind: 'sqlite' | 'postgres';
  /** The home's own database: the ladder, agent tasks, desktop skills, replay sign-ins. */
  readonly db: Db;
  readonly ledger: LedgerRecords;
  readonly approvals: ApprovalRecords;
  readonly runs: RunRecords;
  readonly capabilities: CapabilityRecords;
  readonly registrations: RegistrationRecords;
  readonly secrets: SecretStore;
  close(): Awaitable<void>;
}

/** The embedded store: every record in the home's SQLite file, every answer synchronous. */
export interface EmbeddedStore extends Store {
  readonly kind: 'sqlite';
  readonly ledger: Ledger;
  readonly approvals: Approvals;
  readonly runs: RunLog;
  readonly capabilities: CapabilityFiles;
  readonly registrations: Registrations;
  close(): void;
}

/** Opens everything Lift keeps on disk under `home` (`.lift/` of the working folder by default). */
export function openStore(home: string, env: Record<string, string | undefined> = {}): EmbeddedStore {
  const db = openDatabase(home);
  const secrets = new SecretStore(home, env);
  const runs = new RunLog(db, home, secrets);
  const approvals = new Approvals(db);
  approvals.maskStoredInputs((input) => maskInput(input, secrets));
  return {
    home,
    kind: 'sqlite',
    db,
    ledger: new Ledger(db),
    approvals,
    runs,
    capabilities: new CapabilityFiles(db, home),
    registrations: new Registrations(db),
    secrets,
    close: () => {
      runs.close();
      db.close();
    },
  };
}
