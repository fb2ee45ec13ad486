import { type Browser, errors } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { replayCapability } from '../../src/replay/engine.js';
import { slowPageAt } from '../../src/replay/targets.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type PagesServer, servePages } from '../support/pages-server.js';
import { tempDir } from '../support/temp.js';
import { handWrittenCapability } from './helpers.js';

/**
 * A page whose scripts hold its main thread for seconds at a time, as a renderer on a loaded
 * machine is held (a load run saw a lookup take 39 s and answer SURFACE_CHANGED with the very
 * heading it waited for on the page). Each look of a replay's wait has a short clock and
 * misses on such a page; an action's clock can run out after its input was sent. A replay's
 * answer must still be true: the page's own, or TIMEOUT, never a changed screen or a blocked
 * button that was neither.
 */
const PAGE = `<!doctype html><meta charset="utf-8"><title>Orders</title><main>
<label>Order <input id="order"></label> <button id="go">Look up</button>
<div id="cover" hidden style="position:fixed;inset:0;background:#fff8"></div><p id="answer"></p>
<table hidden id="orders"><tr><th>Order</th><th>Status</th></tr><tr><td id="order-cell"></td><td>shipped</td></tr></table>
<p>Clicks: <span id="clicks">0</span></p></main>
<script>
const mode = new URLSearchParams(location.search).get('mode');
const hold = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} };
if (mode === 'covered') document.getElementById('cover').hidden = false;
let clicks = 0;
document.getElementById('go').addEventListener('mousedown', () => { if (mode === 'slow-input') hold(2500); });
document.getElementById('go').addEventListener('click', async () => {
  clicks++;
  const order = document.getElementById('order').value;
  const answer = await (await fetch('/status?order=' + encodeURIComponent(order))).text();
  document.getElementById('answer').textContent = 'Order ' + order + ': ' + answer;
  document.getElementById('clicks').textContent = String(clicks);
  document.getElementById('order-cell').textContent = order;
  document.getElementById('orders').hidden = false;
  if (mode !== 'slow-after') return;
  // Stretches of 1.5 s with the thread free between them only for a moment.
  let left = 4;
  const stretch = () => { hold(1500); if (--left > 0) setTimeout(stretch, 1); };
  setTimeout(stretch, 1);
});
</script>`;

let server: PagesServer;
let origin: string;
let browser: Browser;
let statusRequests = 0;
const evidence = tempDir('lift-starved-page-');

beforeAll(async () => {
  server = await servePages((url) => {
    if (!url.pathname.startsWith('/status')) return { body: PAGE };
    statusRequests++;
    return { body: 'shipped', type: 'text/plain' };
  });
  origin = server.origin;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  evidence.remove();
});

function lookupCapability(mode: string): Capability {
  const answer = { frame: [], locator: { by: 'text' as const, text: 'Order {{input.order}}: shipped' } };
  const field = { frame: [], locator: { by: 'label' as const, label: 'Order' } };
  return handWrittenCapability({
    name: 'order_status',
    intent: "Look up an order's status",
    inputs: [{ name: 'order', type: 'string' }],
    outputs: [{ name: 'status', type: 'string' }],
    preconditions: { origin, path: `/?mode=${mode}`, fingerprint: 'not-checked' },
    steps: [
      {
        version: 1,
        op: 'fill',
        target: field,
        value: { input: 'order' },
        expect: { kind: 'value', target: field, equals: { input: 'order' } },
      },
      {
        version: 1,
        op: 'click',
        target: { frame: [], locator: { by: 'role', role: 'button', name: 'Look up' } },
        expect: { kind: 'visible', target: answer },
      },
      {
        version: 1,
        op: 'read',
        target: { frame: [], locator: { by: 'cell', row: '{{input.order}}', column: 'Status' } },
        output: 'status',
        expect: { kind: 'none' },
      },
    ],
    outcomes: ['found'],
    checkpoint: { target: answer, equals: { input: 'order' }, match: 'contains' },
  });
}

async function replay(mode: string, order: string) {
  const page = await browser.newPage();
  const events: Array<{ type: string; detail?: string }> = [];
  try {
    const result = await replayCapability(
      lookupCapability(mode),
      { order },
      {
        page,
        layoutTolerant: true,
        evidenceDir: evidence.path,
        stepTimeoutMs: 1_000,
        emit: (event) => events.push(event as { type: string; detail?: string }),
      },
    ).catch((error: unknown) => error as { code: string; message: string });
    const shown = await page.locator('#answer').textContent();
    const clicks = await page.locator('#clicks').textContent();
    return { result, events, shown, clicks };
  } finally {
    await page.close();
  }
}

describe('a replay on a page whose main thread is held for seconds at a time', () => {
  it('ends a wait whose short looks all missed on one look without a clock, and finds the answer there', {
    timeout: 60_000,
  }, async () => {
    const { result, shown } = await replay('slow-after', 'A-17');
    expect(result, JSON.stringify(result)).toMatchObject({
      outcome: 'found',
      outputs: { status: 'shipped' },
      checkpoint: { passed: true },
    });
    expect(shown).toBe('Order A-17: shipped');
  });

  it('lets the postcondition decide when the click was sent but the page took longer than the clock to take it', {
    timeout: 60_000,
  }, async () => {
    const before = statusRequests;
    const { result, events, shown, clicks } = await replay('slow-input', 'B-2');
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'found', checkpoint: { passed: true } });
    // Clicked once: the click that ran out its clock landed, and was not sent again.
    expect({ shown, clicks }).toEqual({ shown: 'Order B-2: shipped', clicks: '1' });
    expect(statusRequests - before).toBe(1);
    expect(events.some((event) => /too slow to acknowledge/.test(event.detail ?? ''))).toBe(true);
  });

  it('still answers NO_CHANGE, quickly, for a button the page covers', { timeout: 60_000 }, async () => {
    const { result, shown } = await replay('covered', 'C-3');
    expect((result as { code?: string }).code).toBe('NO_CHANGE');
    expect(shown).toBe('');
  });
});

describe('slowPageAt, from the call log Playwright ends a timed-out action with', () => {
  const timedOut = (...log: string[]) =>
    new errors.TimeoutError(
      `locator.click: Timeout 5000ms exceeded.\nCall log:\n${log.map((line) => `\u001b[2m  - ${line}\u001b[22m`).join('\n')}\n`,
    );

  it('says before_input while Playwright still waited on the element', () => {
    expect(
      slowPageAt(
        timedOut(
          "waiting for getByRole('button', { name: 'Look up' })",
          '  - locator resolved to <button type="submit">Look up</button>',
          'attempting click action',
          '  waiting for element to be visible, enabled and stable',
          '  element is visible, enabled and stable',
          '  scrolling into view if needed',
          '  done scrolling',
        ),
      ),
    ).toBe('before_input');
  });

  it('says input_sent once the click was being performed', () => {
    expect(
      slowPageAt(timedOut('attempting click action', '  done scrolling', '  performing click action')),
    ).toBe('input_sent');
  });

  it('says nothing when the page refused the action even once, or for errors that are not timeouts', () => {
    expect(
      slowPageAt(
        timedOut(
          'attempting click action',
          '  waiting for element to be visible, enabled and stable',
          '  element is not stable',
          'retrying click action',
          '  waiting 20ms',
          '  waiting for element to be visible, enabled and stable',
        ),
      ),
    ).toBeUndefined();
    expect(slowPageAt(timedOut("waiting for getByRole('button', { name: 'Gone' })"))).toBeUndefined();
    expect(slowPageAt(new Error('Call log:\n  - performing click action'))).toBeUndefined();
  });
});
