import { Approvals } from './approvals.js';
import { type Db, openDatabase } from './database.js';
import { maskInput } from './held-input.js';
import { Ledger } from './ledger.js';
import { RunLog } from './runs.js';
import { SecretStore } from './secrets.js';

export interface Store {
  readonly home: string;
  readonly db: Db;
  readonly ledger: Ledger;
  readonly approvals: Approvals;
  readonly runs: RunLog;
  readonly secrets: SecretStore;
  close(): void;
}

/** Opens everything Lift keeps on disk under `home` (`.lift/` of the working folder by default). */
export function openStore(home: string, env: Record<string, string | undefined> = {}): Store {
  const db = openDatabase(home);
  const secrets = new SecretStore(home, env);
  const runs = new RunLog(db, home, secrets);
  const approvals = new Approvals(db);
  approvals.maskStoredInputs((input) => maskInput(input, secrets));
  return {
    home,
    db,
    ledger: new Ledger(db),
    approvals,
    runs,
    secrets,
    close: () => {
      runs.close();
      db.close();
    },
  };
}
