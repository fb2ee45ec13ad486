import { LiftError } from '../../contract/errors.js';
import { type HledgerRun, runHledger } from './command.js';
import {
  type AccountBalance,
  type Balance,
  exactly,
  type FoundTransaction,
  parseBalanceReport,
  parsePrinted,
} from './journal.js';
import type { HledgerSettings } from './settings.js';

function parsed<T>(what: string, stdout: string, parse: (json: unknown) => T): T {
  try {
    return parse(JSON.parse(stdout));
  } catch (error) {
    throw new LiftError('SURFACE_CHANGED', `hledger's ${what} JSON is not what this tool was built for.`, {
      hint: `Check the hledger version (built against 1.25's -O json). Sample: ${JSON.stringify(stdout.slice(0, 200))}`,
      details: { sample: stdout.slice(0, 500) },
      cause: error,
    });
  }
}

/** The transactions tagged with this request id, read by hledger itself. */
export async function transactionsWithRequestId(
  settings: HledgerSettings,
  requestId: string,
  run: HledgerRun,
): Promise<FoundTransaction[]> {
  const stdout = await runHledger(
    settings,
    ['print', '-O', 'json', `tag:request_id=${exactly(requestId)}`],
    run,
  );
  return parsed('print', stdout, parsePrinted);
}

/** Balances of the given accounts and their subaccounts (all accounts when none are given). */
export async function balances(
  settings: HledgerSettings,
  accounts: readonly string[],
  run: HledgerRun,
  depth?: number,
): Promise<{ accounts: AccountBalance[]; total: Balance[] }> {
  const query = accounts.map((account) => `acct:${exactly(account).slice(0, -1)}(:|$)`);
  const args = [
    'balance',
    '-O',
    'json',
    '--flat',
    '--empty',
    ...(depth ? [`--depth=${depth}`] : []),
    ...query,
  ];
  const stdout = await runHledger(settings, args, run);
  return parsed('balance', stdout, parseBalanceReport);
}
