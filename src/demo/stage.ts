import type { Explorer } from '../discover/explorers/explorer.js';
import type { BackofficeServer } from '../fixtures/backoffice/index.js';
import type { CapabilityToolDeps } from '../replay/tool.js';
import type { PagePool } from '../rungs/ui/page-pool.js';
import type { UiPolicy } from '../rungs/ui/policy.js';
import type { Runtime } from '../runtime/runtime.js';

/** The secret the demo's sign-in reads the fixture's password from. */
export const DEMO_SECRET = 'backoffice_password';

/** What every phase of the demo works with: the fixture, the runtime, the browser pool, how to talk. */
export interface DemoStage {
  say: (text: string) => void;
  fixture: BackofficeServer;
  runtime: Runtime;
  pool: PagePool;
  deps: CapabilityToolDeps;
  policy: UiPolicy;
  /** The model explorer when LIFT_MODEL is set (the command line decides), else undefined. */
  modelExplorer: () => (Explorer & { model: string }) | undefined;
}

/** One row of the demo's closing table. */
export interface LedgerRow {
  task: string;
  model: number;
  tools: number;
  ui: number;
  tokens: number;
  ms: number;
  checks: string;
}
