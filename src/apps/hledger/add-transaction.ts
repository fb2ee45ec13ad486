import { createReadStream, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { removeDeadTemps, withLock, writeFileAtomic } from '../../rungs/file/index.js';
import {
  AccountBalanceOut,
  formatTransaction,
  imbalances,
  type NewTransaction,
  PostingSchema,
} from './journal.js';
import { balances, transactionsWithRequestId } from './read.js';
import { type HledgerSettings, hledgerSettings, journalLock } from './settings.js';
// Declares the events this file emits, with their words (a run log's readers find them there).
import './events.js';

function isCalendarDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

const InputSchema = z.strictObject({
  request_id: RequestIdSchema,
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
    .refine(isCalendarDate, 'a real calendar date')
    .describe('Transaction date, YYYY-MM-DD.'),
  description: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\s;|][^\n\r;|]*[^\s;|]$|^[^\s;|]$/, 'one line without ; or | and without surrounding spaces')
    .describe('Payee or purpose, one line, e.g. "Office chairs".'),
  postings: z
    .array(PostingSchema)
    .min(2)
    .max(20)
    .describe('Account amounts; each commodity must sum to zero.'),
});
type Input = z.infer<typeof InputSchema>;

const BalanceOut = z.array(AccountBalanceOut);

async function* journalWith(path: string, entry: string): AsyncGenerator<string | Uint8Array> {
  let last = 10;
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    if (bytes.length > 0) last = bytes[bytes.length - 1] ?? 10;
    yield bytes;
  }
  yield `${last === 10 ? '' : '\n'}\n${entry}`;
}

type Balances = z.infer<typeof BalanceOut>;

/** The answer of a call, first or repeated: what hledger reads back after it, and the one check. */
function answer(
  settings: HledgerSettings,
  input: Input,
  read: { posted: number; before: Balances; after: Balances; added: boolean },
) {
  return {
    fields: {
      request_id: input.request_id,
      journal: settings.journal,
      posted: read.posted,
      balances_before: read.before,
      balances_after: read.after,
    },
    summary: read.added
      ? `Added '${input.description}' on ${input.date} to ${settings.journal}.`
      : `Transaction ${input.request_id} was already in the journal; nothing was added.`,
    effect: read.added ? ('changed' as const) : ('existing' as const),
    verifiedBy: 'hledger print tag:request_id and hledger balance -O json (command line)',
    checks: [
      {
        name: 'posted exactly once',
        passed: read.posted === 1,
        detail: `hledger finds ${read.posted} transaction(s) tagged request_id:${input.request_id}`,
      },
    ],
  };
}

function accountsOf(input: Input): string[] {
  return [...new Set(input.postings.map((posting) => posting.account))];
}

/**
 * Whether a call cut off mid-call (its worker killed) landed: the journal holds an entry
 * tagged with its request id. Then it answers as a repeat does, the balances as they are now;
 * else undefined, and the call runs (under the lock, where the tag is checked again).
 */
async function settleTransaction(settings: HledgerSettings, input: Input, ctx: ToolContext) {
  const run = { deadline: ctx.deadline, signal: ctx.signal };
  const posted = await transactionsWithRequestId(settings, input.request_id, run);
  if (posted.length === 0) return undefined;
  const now = (await balances(settings, accountsOf(input), run)).accounts;
  return answer(settings, input, { posted: posted.length, before: now, after: now, added: false });
}

/**
 * A write needs the time to read itself back: one that ran out of its deadline in the read-back
 * would leave its outcome unknown, where not writing leaves it plainly not started. The journal's
 * lock can come late (other writers before it), so the time left is checked once it is held,
 * against what this call's own two reads just took, twice over (the write, then the same two reads).
 */
function refuseWithoutTimeToReadBack(deadline: number, readsMs: number): void {
  const left = deadline - Date.now();
  const needed = Math.max(READ_BACK_RESERVE_MS, 2 * readsMs);
  if (left >= needed) return;
  throw new LiftError(
    'TIMEOUT',
    `The journal's lock came with ${seconds(left)} s of the deadline left, too little to write and read back (about ${seconds(needed)} s).`,
    {
      outcome: 'not_started',
      hint: 'Nothing was written: other writers held the journal for most of the deadline. Call again with the same request_id.',
      details: { left_ms: left, needed_ms: needed, reads_ms: readsMs },
    },
  );
}

const READ_BACK_RESERVE_MS = 1_000;

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(1);

async function addTransaction(settings: HledgerSettings, input: Input, ctx: ToolContext) {
  const off = imbalances(input.postings);
  if (off.length > 0) {
    throw new LiftError('BAD_INPUT', `The postings do not balance: ${off.join(', ')}.`, {
      hint: 'Every commodity must sum to zero across the postings. Nothing was written.',
      outcome: 'not_started',
    });
  }
  const run = { deadline: ctx.deadline, signal: ctx.signal };
  const accounts = accountsOf(input);
  const transaction: NewTransaction = { ...input };
  return withLock(
    journalLock(settings),
    { deadline: ctx.deadline, signal: ctx.signal, purpose: 'lift ledger_add_transaction' },
    async () => {
      // Read under the lock: hledger parses the whole journal (a broken manual edit stops us here)
      // and says whether this request id was posted before.
      const readsBegan = Date.now();
      const earlier = await transactionsWithRequestId(settings, input.request_id, run);
      const before = await balances(settings, accounts, run);
      if (earlier.length === 0) {
        refuseWithoutTimeToReadBack(ctx.deadline, Date.now() - readsBegan);
        removeDeadTemps(dirname(settings.journal));
        const entry = formatTransaction(transaction);
        const { mode } = statSync(settings.journal);
        await writeFileAtomic(settings.journal, journalWith(settings.journal, entry), {
          mode: mode & 0o7777,
          beforeRename: () => ctx.markStarted(),
        });
        ctx.emit({ type: 'journal-appended', journal: settings.journal, request_id: input.request_id });
      }
      // Once the entry is written, a read-back that runs out of time leaves the outcome unknown.
      const readBack =
        earlier.length === 0
          ? { ...run, settleAfterWrite: `ledger_transaction_find with request_id ${input.request_id}` }
          : run;
      const posted = await transactionsWithRequestId(settings, input.request_id, readBack);
      const after = await balances(settings, accounts, readBack);
      return answer(settings, input, {
        posted: posted.length,
        before: before.accounts,
        after: after.accounts,
        added: earlier.length === 0,
      });
    },
  );
}

export function ledgerAddTransaction(settings?: HledgerSettings) {
  return defineTool({
    name: 'ledger_add_transaction',
    title: 'Add a transaction to the hledger journal',
    description:
      'Appends one balanced transaction to the hledger journal under its lock, tagged with the request id, and reads the balances of its accounts back through hledger. Returns the balances before and after, how many entries carry the request id, and the effect.',
    group: 'accounting',
    rung: 'file',
    ladder: {
      ruledOut: [
        'api: not present',
        'cli: hledger has no command that writes an entry unattended (hledger add prompts)',
      ],
      stepDown: 'hledger stops reading the journal format this tool writes',
      climb: 'hledger ships a non-interactive add command',
    },
    input: InputSchema,
    output: z.object({
      request_id: z.string().describe('The request id the entry is tagged with.'),
      journal: z.string().describe('Path of the journal written.'),
      posted: z.number().int().describe('Entries tagged with the request id; 1 when all is well.'),
      balances_before: BalanceOut.describe("Balances of the postings' accounts before."),
      balances_after: BalanceOut.describe('The same balances read back after.'),
    }),
    cap: { chars: 8_000 },
    errors: {
      NOT_CONFIGURED: { hint: 'The operator sets the journal in lift.config settings.hledger.journal.' },
      PROGRAM_FAILED: { hint: 'hledger is missing or failed; see the message.' },
    },
    effect: {
      class: 'reversible',
      repeat:
        'The same request_id posts once: the entry carries request_id as an hledger tag, checked under the lock; a second call returns effect existing.',
    },
    timeout: { deadlineMs: 20_000, settle: 'ledger_transaction_find with the same request_id' },
    preview: (input) =>
      `Add to the journal: ${input.date} ${input.description} (${input.postings.map((posting) => `${posting.account} ${posting.amount} ${posting.commodity}`).join(', ')})`,
    example: {
      request_id: 'inv-2026-0042',
      date: '2026-11-30',
      description: 'Office supplies',
      postings: [
        { account: 'expenses:office', amount: '42.50', commodity: 'USD' },
        { account: 'assets:checking', amount: '-42.50', commodity: 'USD' },
      ],
    },
    settleRead: async (input, ctx) => settleTransaction(await hledgerSettings(ctx, settings), input, ctx),
    run: async (input, ctx) => addTransaction(await hledgerSettings(ctx, settings), input, ctx),
  });
}
