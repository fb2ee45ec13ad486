import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { INVENTORY_PROGRAM } from '../../../src/apps/inventory/program.js';
import { inventoryTools } from '../../../src/apps/inventory/tools.js';
import { type Envelope, isError, isPending, isSuccess } from '../../../src/contract/envelope.js';
import { runWrapped } from '../../../src/rungs/cli/run-wrapped.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { failure } from '../../rungs/cli/helpers.js';

const SEED = new URL('../../../src/fixtures/inventory/inventory.json', import.meta.url).pathname;
const temp = mkdtempSync(join(tmpdir(), 'lift-inventory-'));
const runtimes: Runtime[] = [];
const children: ChildProcess[] = [];
let dataFile = '';
let case_ = 0;

beforeEach(() => {
  case_ += 1;
  dataFile = join(temp, `inventory-${case_}.json`);
  copyFileSync(SEED, dataFile);
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  // The crash test leaves the inventory program running on its own; end it by its data file.
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(temp)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  for (const runtime of runtimes) await runtime.close();
  rmSync(temp, { recursive: true, force: true });
});

function runtime(home = mkdtempSync(join(temp, 'home-')), env?: Record<string, string>): Runtime {
  const created = new Runtime({ home, tools: inventoryTools({ dataFile, ...(env ? { env } : {}) }) });
  runtimes.push(created);
  return created;
}

function records(reference?: string): Array<{ reference: string; sku: string }> {
  const items = (
    JSON.parse(readFileSync(dataFile, 'utf8')) as { items: Array<{ reference: string; sku: string }> }
  ).items;
  return reference === undefined ? items : items.filter((item) => item.reference === reference);
}

async function createApproved(lift: Runtime, input: Record<string, unknown>): Promise<Envelope> {
  const held = await lift.invoke('inventory_create_item', input);
  if (!isPending(held)) return held;
  return lift.approve(held.pending.approval_id);
}

const input = (requestId: string) => ({
  sku: 'Z-100',
  name: 'Hex key set',
  qty: 7,
  location: 'Shelf 9',
  request_id: requestId,
});

describe('the legacy inventory program itself', () => {
  it('duplicates a retried create (which is why the tool needs a ledger)', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      await runWrapped({
        program: INVENTORY_PROGRAM,
        args: ['--data', dataFile, 'add', '--sku', 'Z-1', '--name', 'Dup', '--qty', '1', '--location', 'Bin'],
        confirmations: [{ pattern: /\[Y\/n\]$/, answer: 'y' }],
        approved: true,
        deadline: Date.now() + 15_000,
      });
    }
    expect(records().filter((item) => item.sku === 'Z-1')).toHaveLength(2);
  });

  it('pages with its own --More-- prompt when no pager is set, which ends in PROMPT_UNEXPECTED, not a hang', async () => {
    const { error } = await failure(
      runWrapped({
        program: INVENTORY_PROGRAM,
        args: ['--data', dataFile, 'list'],
        env: { PAGER: '' },
        deadline: Date.now() + 15_000,
      }),
    );
    expect(error.code).toBe('PROMPT_UNEXPECTED');
    expect(error.hint).toContain('--More--');
  });
});

describe('inventory_find_items', () => {
  it('reads the human table into fields, through the pager setting', async () => {
    const envelope = await runtime().invoke('inventory_find_items', {});
    if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope));
    expect(envelope.fields.count).toBe(12);
    expect((envelope.fields.items as unknown[])[0]).toEqual({
      id: 'INV-0001',
      sku: 'A-100',
      name: 'Bolt M4 x 20',
      qty: 120,
      location: 'Shelf 1',
      reference: '',
    });
  });
});

describe('inventory_create_item', () => {
  it('is held for review, then answers the confirmation once after approval and reads the item back', async () => {
    const lift = runtime();
    const held = await lift.invoke('inventory_create_item', input('req-first-0001'));
    expect(isPending(held)).toBe(true);
    expect(records('req-first-0001')).toHaveLength(0);
    if (!isPending(held)) return;
    const envelope = await lift.approve(held.pending.approval_id);
    if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope));
    expect(envelope.ok).toBe(true);
    expect(envelope.effect).toBe('changed');
    expect(envelope.fields).toMatchObject({
      id: 'INV-0013',
      sku: 'Z-100',
      qty: 7,
      reference: 'req-first-0001',
    });
    expect(envelope.checks.every((check) => check.passed)).toBe(true);
  });

  it('is exactly-once under retries: the same request_id returns the first item, effect existing', async () => {
    const lift = runtime();
    const first = await createApproved(lift, input('req-retry-0002'));
    const second = await lift.invoke('inventory_create_item', input('req-retry-0002'));
    if (!isSuccess(first) || !isSuccess(second)) throw new Error(JSON.stringify([first, second]));
    expect(second.effect).toBe('existing');
    expect(second.fields.id).toBe(first.fields.id);
    expect(records('req-retry-0002')).toHaveLength(1);
  });

  it('finds its own item by reference when the ledger is gone (another Lift home), instead of duplicating', async () => {
    await createApproved(runtime(), input('req-lost-ledger-3'));
    const again = await createApproved(runtime(), input('req-lost-ledger-3'));
    if (!isSuccess(again)) throw new Error(JSON.stringify(again));
    expect(again.effect).toBe('existing');
    expect(records('req-lost-ledger-3')).toHaveLength(1);
  });

  it('maps the program exit code for a locked data file to LOCKED, with nothing created', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dataFile}.lock`, '999999');
    const envelope = await createApproved(runtime(), input('req-locked-00004'));
    rmSync(`${dataFile}.lock`);
    if (!isError(envelope)) throw new Error(JSON.stringify(envelope));
    expect(envelope.error.code).toBe('LOCKED');
    expect(envelope.error.outcome).toBe('not_started');
    expect(records('req-locked-00004')).toHaveLength(0);
  });

  it('after kill -9 of the wrapper mid-create, a retry never makes a second record', async () => {
    const home = mkdtempSync(join(temp, 'crash-'));
    const wrapper = spawn(
      'node',
      [
        '--import',
        'tsx',
        new URL('./crash-during-create.ts', import.meta.url).pathname,
        home,
        dataFile,
        JSON.stringify(input('req-crash-00005')),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(wrapper);
    // Wait (bounded) until the program has written the item, then kill the wrapper mid-create.
    const until = Date.now() + 30_000;
    while (records('req-crash-00005').length === 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect(records('req-crash-00005')).toHaveLength(1);
    wrapper.kill('SIGKILL');
    await new Promise((resolve) => wrapper.once('exit', resolve));

    const lift = runtime(home);
    const retry = await lift.invoke('inventory_create_item', input('req-crash-00005'));
    if (!isError(retry)) throw new Error(JSON.stringify(retry));
    expect(retry.error.code).toBe('OUTCOME_UNKNOWN');
    expect(retry.error.settle).toContain('inventory_find_items');
    const settle = await lift.invoke('inventory_find_items', { reference: 'req-crash-00005' });
    if (!isSuccess(settle)) throw new Error(JSON.stringify(settle));
    expect(settle.fields.count).toBe(1);
    // A retry through a Lift that never saw the first call finds the item too.
    const elsewhere = await createApproved(runtime(), input('req-crash-00005'));
    if (!isSuccess(elsewhere)) throw new Error(JSON.stringify(elsewhere));
    expect(elsewhere.effect).toBe('existing');
    expect(records('req-crash-00005')).toHaveLength(1);
  }, 60_000);
});
