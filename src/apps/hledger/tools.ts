import type { AnyTool } from '../../contract/define-tool.js';
import { ledgerAddTransaction } from './add-transaction.js';
import { ledgerBalanceRead, ledgerTransactionFind } from './read-tools.js';
import type { HledgerSettings } from './settings.js';

export { HLEDGER_SETTINGS_SERVICE, type HledgerSettings } from './settings.js';

/** The ledger tools over one hledger journal; without settings they use the 'settings:hledger' service. */
export function hledgerTools(settings?: HledgerSettings): AnyTool[] {
  return [ledgerAddTransaction(settings), ledgerBalanceRead(settings), ledgerTransactionFind(settings)];
}

/** The built-in instances: they read their journal from the 'settings:hledger' service (NOT_CONFIGURED without it). */
export const tools: AnyTool[] = hledgerTools();
