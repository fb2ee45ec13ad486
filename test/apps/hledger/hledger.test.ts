import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { hledgerTools } from '../../../src/apps/hledger/tools.js';
import type { Envelope, ErrorEnvelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { hashValue } from '../../../src/store/canonical.js';
import { tempDir } from '../../support/temp.js';

const dir = tempDir('lift-hledger-');
const homes: Array<{ runtime: Runtime; remove: () => void }> = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(async () => {
  for (const home of homes) {
    await home.runtime.close();
    home.remove();
  }
  dir.remove();
});

const OPENING = `2026-11-01 Opening balance  ; request_id:opening-1
    assets:checking      1000.00 USD
    equity:opening
`;

let counter = 0;
function journal(): string {
  const path = join(dir.path, `ledger-${counter++}.journal`);
  writeFileSync(path, OPENING);
  return path;
}

function lift(journalPath: string): Runtime {
  const home = tempDir('lift-hledger-home-');
  const runtime = new Runtime({ home: home.path, tools: hledgerTools({ journal: journalPath }) });
  homes.push({ runtime, remove: home.remove });
  return runtime;
}

function success(envelope: Envelope): SuccessEnvelope {
  if (!('fields' in envelope)) throw new Error(`expected success, got ${JSON.stringify(envelope)}`);
  return envelope;
}
function failure(envelope: Envelope): ErrorEnvelope['error'] {
  if (!('error' in envelope)) throw new Error(`expected an error, got ${JSON.stringify(envelope)}`);
  return envelope.error;
}

/** A Lift whose hledger tools have a deadline of `deadlineMs`, for calls that must run out of time. */
function withDeadline(journalPath: string, home: string, deadlineMs: number): Runtime {
  return new Runtime({
    home: join(dir.path, home),
    tools: hledgerTools({ journal: journalPath }).map((tool) => ({
      ...tool,
      timeout: { ...tool.timeout, deadlineMs },
    })),
  });
}

/** A person's program holding the journal's lock until it is killed; it prints "held" once it does. */
function holdLock(lock: string): ChildProcess {
  const holder = spawn(
    process.execPath,
    [join(import.meta.dirname, '..', '..', 'rungs', 'file', 'fixtures', 'hold-lock.mjs'), lock],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(holder);
  return holder;
}

const supplies = (requestId: string) => ({
  request_id: requestId,
  date: '2026-11-30',
  description: 'Office supplies',
  postings: [
    { account: 'expenses:office', amount: '42.50', commodity: 'USD' },
    { account: 'assets:checking', amount: '-42.50', commodity: 'USD' },
  ],
});

const balanceOf = (envelope: SuccessEnvelope, account: string) =>
  (envelope.fields.accounts as Array<{ account: string; amounts: Array<{ quantity: string }> }>).find(
    (row) => row.account === account,
  )?.amounts[0]?.quantity;

describe('ledger_add_transaction', () => {
  it('appends a tagged entry and reads the new balances back through hledger', async () => {
    const path = journal();
    const runtime = lift(path);
    const envelope = success(await runtime.invoke('ledger_add_transaction', supplies('supplies-001')));
    expect(envelope.ok).toBe(true);
    expect(envelope.effect).toBe('changed');
    expect(envelope.fields.balances_after).toEqual([
      { account: 'assets:checking', amounts: [{ commodity: 'USD', quantity: '957.50' }] },
      { account: 'expenses:office', amounts: [{ commodity: 'USD', quantity: '42.50' }] },
    ]);
    expect(readFileSync(path, 'utf8')).toContain('2026-11-30 Office supplies  ; request_id:supplies-001');
    const balance = success(await runtime.invoke('ledger_balance_read', { accounts: ['assets'] }));
    expect(balanceOf(balance, 'assets:checking')).toBe('957.50');
    expect(readdirSync(dir.path).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'))).toEqual(
      [],
    );
  });

  it('does not post a duplicate request id twice, even from a Lift with an empty ledger', async () => {
    const path = journal();
    const first = lift(path);
    success(await first.invoke('ledger_add_transaction', supplies('supplies-dup')));
    expect(success(await first.invoke('ledger_add_transaction', supplies('supplies-dup'))).effect).toBe(
      'existing',
    );
    const fresh = lift(path);
    const again = success(await fresh.invoke('ledger_add_transaction', supplies('supplies-dup')));
    expect(again.effect).toBe('existing');
    expect(again.fields.posted).toBe(1);
    expect(readFileSync(path, 'utf8').match(/request_id:supplies-dup/g)).toHaveLength(1);
    const found = success(await fresh.invoke('ledger_transaction_find', { request_id: 'supplies-dup' }));
    expect(found.fields.found).toBe(true);
  });

  it('settles a call cut off mid-call (its worker killed): existing when its entry landed, run once when not', async () => {
    const path = journal();
    const runtime = lift(path);
    const tool = 'ledger_add_transaction';
    // Landed: the entry is in the journal, the ledger left unknown as a kill -9 leaves it.
    success(await runtime.invoke(tool, supplies('cut-1')));
    await runtime.store.ledger.markUnknown(tool, 'cut-1');
    const landed = success(await runtime.invoke(tool, supplies('cut-1'), { settleFirst: true }));
    expect(landed.effect).toBe('existing');
    expect(landed.fields.posted).toBe(1);
    // Not landed: claimed by a call that died before it wrote.
    await runtime.store.ledger.claim(tool, 'cut-2', hashValue(supplies('cut-2')));
    await runtime.store.ledger.markUnknown(tool, 'cut-2');
    const ran = success(await runtime.invoke(tool, supplies('cut-2'), { settleFirst: true }));
    expect(ran.effect).toBe('changed');
    const text = readFileSync(path, 'utf8');
    expect(text.match(/request_id:cut-1\b/g)).toHaveLength(1);
    expect(text.match(/request_id:cut-2\b/g)).toHaveLength(1);
  });

  it("returns SURFACE_CHANGED with hledger's own error when a manual edit broke the journal, and writes nothing", async () => {
    const path = journal();
    appendFileSync(path, '\n2026-13-45 Typo by hand\n    expenses:misc    5 USD\n    assets:checking\n');
    const before = readFileSync(path, 'utf8');
    const error = failure(await lift(path).invoke('ledger_add_transaction', supplies('supplies-broken')));
    expect(error.code).toBe('SURFACE_CHANGED');
    expect(error.message).toContain('2026-13-45');
    expect(error.message).toMatch(/invalid date/);
    expect(error.outcome).toBe('not_started');
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('rejects bad input before the journal is touched', async () => {
    const path = journal();
    const runtime = lift(path);
    const unbalanced = failure(
      await runtime.invoke('ledger_add_transaction', {
        ...supplies('supplies-bad-1'),
        postings: [
          { account: 'expenses:office', amount: '42.50', commodity: 'USD' },
          { account: 'assets:checking', amount: '-40.00', commodity: 'USD' },
        ],
      }),
    );
    expect(unbalanced.code).toBe('BAD_INPUT');
    expect(unbalanced.message).toContain('USD off by 2.5');
    for (const bad of [
      { ...supplies('supplies-bad-2'), description: 'Sneaky ; comment' },
      { ...supplies('supplies-bad-3'), date: '2026-02-30' },
      {
        ...supplies('supplies-bad-4'),
        postings: [
          { account: 'expenses  office', amount: '1', commodity: 'USD' },
          { account: 'assets', amount: '-1', commodity: 'USD' },
        ],
      },
      {
        ...supplies('supplies-bad-5'),
        postings: [
          { account: 'expenses', amount: '1e3', commodity: 'USD' },
          { account: 'assets', amount: '-1000', commodity: 'USD' },
        ],
      },
    ]) {
      expect(failure(await runtime.invoke('ledger_add_transaction', bad)).code).toBe('BAD_INPUT');
    }
    expect(readFileSync(path, 'utf8')).toBe(OPENING);
  });

  it('waits for the journal lock a person holds, then times out with outcome not_started', async () => {
    const path = journal();
    const holder = holdLock(`${path}.lock`);
    await new Promise((resolve) => holder.stdout?.once('data', resolve));
    const short = withDeadline(path, 'short-home', 1_200);
    try {
      const error = failure(await short.invoke('ledger_add_transaction', supplies('supplies-locked')));
      expect(error.code).toBe('TIMEOUT');
      expect(error.outcome).toBe('not_started');
      expect(readFileSync(path, 'utf8')).toBe(OPENING);
    } finally {
      await short.close();
    }
  });

  it('does not write when the lock comes too late to read the write back: not_started, and a retry posts once', async () => {
    const path = journal();
    const holder = holdLock(`${path}.lock`);
    await new Promise((resolve) => holder.stdout?.once('data', resolve));
    const short = withDeadline(path, 'late-lock-home', 3_000);
    try {
      // The holder dies 2 s into the 3 s deadline: the lock is free again with at most 1 s left.
      const released = setTimeout(() => holder.kill('SIGKILL'), 2_000);
      const envelope = await short.invoke('ledger_add_transaction', supplies('supplies-late'));
      clearTimeout(released);
      // Before, such a call wrote with the second it had left and ran out in the read-back
      // (outcome unknown), or wrote and answered. Now it refuses once its reads are done (on a
      // machine so loaded that the reads outlast the last second, hledger is stopped first).
      expect(failure(envelope)).toMatchObject({ code: 'TIMEOUT', outcome: 'not_started' });
      expect(readFileSync(path, 'utf8')).toBe(OPENING);
      const retried = success(await short.invoke('ledger_add_transaction', supplies('supplies-late')));
      expect(retried).toMatchObject({ effect: 'changed', fields: { posted: 1 } });
    } finally {
      await short.close();
    }
  });
});

describe('ledger_balance_read', () => {
  it('reads every account, or the named ones with their subaccounts', async () => {
    const path = journal();
    const runtime = lift(path);
    success(await runtime.invoke('ledger_add_transaction', supplies('supplies-read')));
    const all = success(await runtime.invoke('ledger_balance_read', {}));
    expect(balanceOf(all, 'equity:opening')).toBe('-1000.00');
    const expenses = success(await runtime.invoke('ledger_balance_read', { accounts: ['expenses'] }));
    expect((expenses.fields.accounts as unknown[]).length).toBe(1);
    expect(balanceOf(expenses, 'expenses:office')).toBe('42.50');
  });

  it('answers NOT_CONFIGURED when no journal was given', async () => {
    const home = tempDir('lift-hledger-unconfigured-');
    const runtime = new Runtime({ home: home.path, tools: hledgerTools() });
    try {
      expect(failure(await runtime.invoke('ledger_balance_read', {})).code).toBe('NOT_CONFIGURED');
    } finally {
      await runtime.close();
      home.remove();
    }
  });
});
