import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { AccountBalanceOut, AccountSchema, AmountOut } from './journal.js';
import { balances, transactionsWithRequestId } from './read.js';
import { type HledgerSettings, hledgerSettings } from './settings.js';

export function ledgerBalanceRead(settings?: HledgerSettings) {
  return defineTool({
    name: 'ledger_balance_read',
    title: 'Read account balances from hledger',
    description:
      'Reads the balances of the named accounts and their subaccounts (all accounts when none are named) through hledger. Returns each account with its amounts per commodity, and the total.',
    group: 'accounting',
    rung: 'cli',
    input: z.strictObject({
      accounts: z
        .array(AccountSchema)
        .max(20)
        .default([])
        .describe('Accounts to read, subaccounts included; none for all.'),
      depth: z
        .number()
        .int()
        .min(1)
        .max(9)
        .optional()
        .describe('Levels of account names to show; 1 is top level only.'),
    }),
    output: z.object({
      journal: z.string().describe('Path of the journal read.'),
      accounts: z.array(AccountBalanceOut).describe('Each account with its balance.'),
      total: z.array(AmountOut).describe('Sum of the accounts shown, per commodity.'),
    }),
    cap: { chars: 8_000, rows: 200, narrow: 'Name fewer accounts, or set depth.' },
    errors: {
      NOT_CONFIGURED: { hint: 'The operator sets the journal in lift.config settings.hledger.journal.' },
    },
    effect: { class: 'read' },
    timeout: { deadlineMs: 15_000 },
    example: { accounts: ['assets', 'expenses:office'] },
    run: async (input, ctx) => {
      const resolved = await hledgerSettings(ctx, settings);
      const report = await balances(
        resolved,
        input.accounts,
        { deadline: ctx.deadline, signal: ctx.signal },
        input.depth,
      );
      return {
        fields: { journal: resolved.journal, ...report },
        summary: `${report.accounts.length} account balance(s) from ${resolved.journal}.`,
        verifiedBy: 'hledger balance -O json (command line)',
      };
    },
  });
}

export function ledgerTransactionFind(settings?: HledgerSettings) {
  return defineTool({
    name: 'ledger_transaction_find',
    title: 'Find the transaction posted with a request id',
    description:
      'Says whether a transaction tagged with this request id is in the journal (the settle read of ledger_add_transaction). Returns found and the matching transactions with their postings.',
    group: 'accounting',
    rung: 'cli',
    input: z.strictObject({ request_id: RequestIdSchema }),
    output: z.object({
      found: z.boolean().describe('True when the journal holds it.'),
      transactions: z
        .array(
          z.object({
            date: z.string().describe('YYYY-MM-DD.'),
            description: z.string().describe('Description line.'),
            postings: z.array(AccountBalanceOut).describe('Account and amounts of each posting.'),
          }),
        )
        .describe('Transactions tagged with the request id; more than one is a duplicate.'),
    }),
    cap: { chars: 6_000 },
    errors: {
      NOT_CONFIGURED: { hint: 'The operator sets the journal in lift.config settings.hledger.journal.' },
    },
    effect: { class: 'read' },
    timeout: { deadlineMs: 15_000 },
    example: { request_id: 'inv-2026-0042' },
    run: async (input, ctx) => {
      const resolved = await hledgerSettings(ctx, settings);
      const found = await transactionsWithRequestId(resolved, input.request_id, {
        deadline: ctx.deadline,
        signal: ctx.signal,
      });
      return {
        fields: { found: found.length > 0, transactions: found },
        summary:
          found.length > 0
            ? `${found.length} transaction(s) carry request_id ${input.request_id}.`
            : `No transaction carries request_id ${input.request_id}.`,
        verifiedBy: 'hledger print tag:request_id -O json (command line)',
      };
    },
  });
}
