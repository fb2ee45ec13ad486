import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type PagesServer, servePages } from '../support/pages-server.js';
import { tempDir } from '../support/temp.js';

/**
 * A page that answers a click over a script request the server takes its time with, as an
 * application on a loaded machine does. A replay's wait that runs out while that request is
 * in flight proves nothing about the screen: it waits on while the page is busy (up to the
 * navigation bound), and if the page is still busy then, it answers TIMEOUT, never
 * SURFACE_CHANGED (two of which switch the capability off for every worker).
 */
const PAGE = `<!doctype html><meta charset="utf-8"><title>Orders</title><main>
<label>Order <input id="order"></label> <button id="go">Look up</button><p id="answer"></p></main>
<script>
document.getElementById('go').addEventListener('click', async () => {
  const order = document.getElementById('order').value;
  const answer = await (await fetch('/status?order=' + encodeURIComponent(order))).text();
  document.getElementById('answer').textContent = 'Order ' + order + ': ' + answer;
});
</script>`;

let server: PagesServer;
let origin: string;
let browser: Browser;
/** How long the server takes with a status request (Infinity: it never answers). */
let delayMs = 0;
const evidence = tempDir('lift-busy-page-');

beforeAll(async () => {
  server = await servePages((url) =>
    url.pathname.startsWith('/status')
      ? { body: 'shipped', type: 'text/plain', afterMs: delayMs }
      : { body: PAGE },
  );
  origin = server.origin;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  evidence.remove();
});

function lookupCapability(): Capability {
  const answer = { frame: [], locator: { by: 'text' as const, text: 'Order {{input.order}}: shipped' } };
  return {
    schemaVersion: 1,
    name: 'order_status',
    intent: "Look up an order's status",
    inputs: [{ name: 'order', type: 'string' }],
    outputs: [],
    preconditions: { origin, path: '/', fingerprint: 'not-checked' },
    steps: [
      {
        version: 1,
        op: 'fill',
        target: { frame: [], locator: { by: 'label', label: 'Order' } },
        value: { input: 'order' },
        expect: {
          kind: 'value',
          target: { frame: [], locator: { by: 'label', label: 'Order' } },
          equals: { input: 'order' },
        },
      },
      {
        version: 1,
        op: 'click',
        target: { frame: [], locator: { by: 'role', role: 'button', name: 'Look up' } },
        expect: { kind: 'visible', target: answer },
      },
    ],
    outcomes: ['found'],
    dialogs: [],
    checkpoint: { target: answer, equals: { input: 'order' }, match: 'contains' },
    provenance: {
      explorer: 'scripted',
      runId: 'run_test',
      createdAt: '2026-12-03T07:00:00.000Z',
      liftVersion: LIFT_VERSION,
    },
  };
}

async function replay(order: string) {
  const page = await browser.newPage();
  try {
    return await replayCapability(
      lookupCapability(),
      { order },
      { page, layoutTolerant: true, evidenceDir: evidence.path, stepTimeoutMs: 1_000 },
    );
  } finally {
    await page.close();
  }
}

describe("a replay's wait on a page still busy with the step's script request", () => {
  it('goes on past the step timeout while the request is in flight, and succeeds', {
    timeout: 60_000,
  }, async () => {
    // Longer than the step's 1 s and than the at-most-5 s wait for the action's requests.
    delayMs = 7_000;
    const result = await replay('A-17');
    expect(result).toMatchObject({ outcome: 'found', checkpoint: { passed: true } });
  });

  it('answers TIMEOUT, not SURFACE_CHANGED, when the request is still in flight at the bound', {
    timeout: 90_000,
  }, async () => {
    delayMs = Number.POSITIVE_INFINITY;
    const failed = await replay('B-2').then(
      () => undefined,
      (error: unknown) => error as { code: string; outcome?: string; message: string },
    );
    expect(failed?.code, failed?.message).toBe('TIMEOUT');
    expect(failed?.message).toMatch(/still busy/);
  });

  it('still answers SURFACE_CHANGED on a page at rest that lacks what the step expected', {
    timeout: 60_000,
  }, async () => {
    delayMs = 0;
    const page = await browser.newPage();
    try {
      const changed = lookupCapability();
      const click = changed.steps[1]!;
      if (click.op === 'click' && click.expect?.kind === 'visible')
        click.expect.target = {
          frame: [],
          locator: { by: 'text', text: 'Order {{input.order}}: delivered' },
        };
      const failed = await replayCapability(
        changed,
        { order: 'C-3' },
        { page, layoutTolerant: true, evidenceDir: evidence.path, stepTimeoutMs: 1_000 },
      ).then(
        () => undefined,
        (error: unknown) => error as { code: string },
      );
      expect(failed?.code).toBe('SURFACE_CHANGED');
    } finally {
      await page.close();
    }
  });
});
