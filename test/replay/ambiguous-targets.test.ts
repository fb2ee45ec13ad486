import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability, Checkpoint, Step } from '../../src/capability/capability.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { type PagesServer, servePages } from '../support/pages-server.js';
import { tempDir } from '../support/temp.js';
import { handWrittenCapability } from './helpers.js';

// A customer with two orders: a row value that names two rows on this data. A target that says
// which one (nth) reads that one; one that does not is ambiguous, and says so: never a read of
// one of them, never "The page shows ''" (issue 41).
const PAGE = `<!doctype html><title>Orders</title><main><h1>Orders</h1>
<table><tr><th>Order</th><th>Customer</th><th>Total</th></tr>
<tr><td>1</td><td>Ada</td><td>10.00</td></tr>
<tr><td>2</td><td>Ada</td><td>25.50</td></tr>
<tr><td>3</td><td>Bob</td><td>7.25</td></tr></table></main>`;

let server: PagesServer;
let browser: Browser;
const evidence = tempDir('lift-ambiguous-');

beforeAll(async () => {
  server = await servePages(() => ({ body: PAGE }));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  evidence.remove();
});

const cell = (column: string, nth?: number): Target => ({
  frame: [],
  locator: { by: 'cell', row: '{{input.customer}}', column },
  ...(nth ? { nth } : {}),
});
const customerCell: Target = {
  frame: [],
  locator: { by: 'cell', key: 'Customer', row: '{{input.customer}}', column: 'Customer' },
};

function orderTotal(read: Target, checkpoint: Checkpoint): Capability {
  const step: Step = { version: 1, op: 'read', target: read, output: 'total', expect: { kind: 'none' } };
  return handWrittenCapability({
    name: 'order_total_read',
    intent: "Read the total of a customer's order",
    inputs: [{ name: 'customer', type: 'string' }],
    outputs: [{ name: 'total', type: 'number' }],
    preconditions: { origin: server.origin, path: '/orders', fingerprint: 'not-checked' },
    steps: [step],
    outcomes: ['found'],
    checkpoint,
  });
}

const onTotal = (nth?: number): Checkpoint => ({
  target: cell('Customer', nth),
  equals: { input: 'customer' },
  match: 'exact',
});

async function replay(capability: Capability, customer: string) {
  const page = await browser.newPage();
  try {
    return await replayCapability(
      capability,
      { customer },
      { page, layoutTolerant: true, evidenceDir: evidence.path, stepTimeoutMs: 2_000 },
    );
  } finally {
    await page.close();
  }
}

describe('cell targets on rows a value names twice', () => {
  it('read the match their nth names, in a read and in the checkpoint', { timeout: 60_000 }, async () => {
    const result = await replay(orderTotal(cell('Total', 2), onTotal(2)), 'Ada');
    expect(result).toMatchObject({
      outcome: 'found',
      outputs: { total: 25.5 },
      checkpoint: { passed: true },
    });
  });

  it('answer AMBIGUOUS_TARGET for a read without nth, not SURFACE_CHANGED', { timeout: 60_000 }, async () => {
    await expect(replay(orderTotal(cell('Total'), onTotal(2)), 'Ada')).rejects.toMatchObject({
      code: 'AMBIGUOUS_TARGET',
      outcome: 'not_started',
    });
  });

  it('answer AMBIGUOUS_TARGET for a checkpoint without nth, never "The page shows \'\'"', {
    timeout: 60_000,
  }, async () => {
    const failure = await replay(
      orderTotal(cell('Total', 2), { target: customerCell, equals: { input: 'customer' }, match: 'exact' }),
      'Ada',
    ).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'AMBIGUOUS_TARGET' });
    expect(String((failure as Error).message)).toMatch(/matches 2 elements/);
    expect(String((failure as Error).message)).not.toContain("shows ''");
  });

  it('still read a value that names one row on this data', { timeout: 60_000 }, async () => {
    const result = await replay(
      orderTotal(cell('Total'), { target: customerCell, equals: { input: 'customer' }, match: 'exact' }),
      'Bob',
    );
    expect(result).toMatchObject({ outcome: 'found', outputs: { total: 7.25 } });
  });
});
