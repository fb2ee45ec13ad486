/**
 * The request guard's browser line on its own, with no page guard closing windows: what a
 * page's own session does not see (a window the page opened, a frame written into a blank
 * one, a shared worker, a page of the context that has no guard) is checked by the browser
 * before it leaves; a guarded page's requests are its own guard's; another context is not the
 * line's business; and the HTTP cache stays on, which Playwright's context route turned off.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserGuard, type GuardedPage } from '../../../src/rungs/ui/browser-guard.js';
import { frameIdsOf } from '../../../src/rungs/ui/paused-request.js';
import { checkUrl, parsePolicy } from '../../../src/rungs/ui/policy.js';
import { RequestGuard } from '../../../src/rungs/ui/request-guard.js';
import { launchChromium } from '../../replay/helpers.js';
import { type Listener, startListener } from '../../security/listener.js';

let browser: Browser;
let listener: Listener;
let server: Server;
let origin: string;
const served: string[] = [];

function pageHtml(path: string): string {
  const elsewhere = listener.origin;
  switch (path) {
    case '/popup':
      return `<button onclick="window.open('${elsewhere}/popup')">Open</button>`;
    case '/popup-same-origin':
      return `<button onclick="window.open('/after-open')">Open</button>`;
    case '/blank-frame':
      return `<button onclick="const w = window.open(''); w.document.body.innerHTML = '<iframe src=&quot;${elsewhere}/blank-frame&quot;></iframe>'">Open</button>`;
    case '/framed':
      return `<iframe src="/inner"></iframe>`;
    case '/inner':
      return `<img src="${elsewhere}/from-frame">`;
    case '/framed-plain':
      return `<iframe src="/inner-plain"></iframe>`;
    case '/framed-elsewhere':
      return `<iframe src="${elsewhere}/other-context-frame"></iframe>`;
    case '/shared-worker':
      return `<p id="said">waiting</p><script>const w = new SharedWorker('/shared.js'); w.port.onmessage = (e) => { document.getElementById('said').textContent = e.data; };</script>`;
    default:
      return '<script src="/app.js"></script><p>hello</p>';
  }
}

beforeAll(async () => {
  listener = await startListener();
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    served.push(path);
    if (path === '/app.js')
      return response
        .writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'max-age=600' })
        .end('1');
    if (path === '/shared.js')
      return response
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end(
          `onconnect = (e) => { const port = e.ports[0]; fetch('${listener.origin}/shared').then(() => port.postMessage('fetched'), () => port.postMessage('refused')); };`,
        );
    response.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml(path));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  await listener?.close();
});

/** A page guard as the line sees one: the policy of `origin`, refusals kept. */
function fakeGuard(): GuardedPage & { refused: string[] } {
  const policy = parsePolicy({ origins: [origin] });
  const refused: string[] = [];
  return {
    policy,
    refused,
    allows(url) {
      const allowed = checkUrl(policy, url, false).allowed;
      if (!allowed) refused.push(new URL(url).pathname);
      return allowed;
    },
    refuse(url, reason) {
      refused.push(`${new URL(url).pathname} (${reason})`);
    },
  };
}

/**
 * A page in a new context, watched by the line (no page guard of its own: the line alone). With
 * `frames`, the guard answers the line's question for the page's frames and names none itself.
 */
async function guardedPage(options: { frames?: boolean } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const session = await context.newCDPSession(page);
  const { targetInfo } = (await session.send('Target.getTargetInfo')) as {
    targetInfo: { targetId: string; browserContextId: string };
  };
  const guard = fakeGuard();
  if (options.frames) guard.frameIds = () => frameIdsOf(session);
  (await BrowserGuard.of(browser)).watch(targetInfo.targetId, targetInfo.browserContextId, guard);
  return { context, page, guard };
}

describe('the browser line of the request guard', () => {
  it('lets a window the page opened load nothing, its first request included', async () => {
    const { context, page, guard } = await guardedPage();
    try {
      await page.goto(`${origin}/popup-same-origin`);
      const opened = context.waitForEvent('page');
      await page.click('button');
      await (await opened).waitForLoadState().catch(() => undefined);
      await expect
        .poll(() => guard.refused)
        .toContain('/after-open (a window the page opened loads nothing)');
      expect(served).not.toContain('/after-open');
    } finally {
      await context.close();
    }
  });

  it("refuses a frame written into a blank window while it is open, by its opener's policy", async () => {
    const { context, page, guard } = await guardedPage();
    try {
      await page.goto(`${origin}/blank-frame`);
      await page.click('button');
      await expect.poll(() => guard.refused).toContain('/blank-frame');
      expect(context.pages()).toHaveLength(2);
      expect(listener.requests).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("holds a shared worker's requests to the policy of its context's pages", async () => {
    const { context, page, guard } = await guardedPage();
    try {
      await page.goto(`${origin}/shared-worker`);
      await expect.poll(() => page.locator('#said').textContent()).toBe('refused');
      expect(guard.refused).toContain('/shared');
      expect(listener.requests).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('decides a request of a frame it was not told of by the policy of the page that has it', async () => {
    const { context, page, guard } = await guardedPage({ frames: true });
    try {
      await page.goto(`${origin}/framed`);
      await expect.poll(() => guard.refused).toContain('/from-frame');
      expect(served).toContain('/inner');
      expect(listener.requests).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('holds no request longer than a bounded wait for a page that never names its frames', async () => {
    const { context, page, guard } = await guardedPage();
    guard.frameIds = () => new Promise<string[]>(() => undefined);
    try {
      await page.goto(`${origin}/framed-plain`, { waitUntil: 'commit' });
      await expect.poll(() => served, { timeout: 10_000 }).toContain('/inner-plain');
    } finally {
      await context.close();
    }
  });

  it("leaves the frames of another context's pages alone", async () => {
    const { context: guarded } = await guardedPage({ frames: true });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/framed-elsewhere`);
      await expect.poll(() => listener.requests).toEqual(['GET /other-context-frame']);
    } finally {
      listener.requests.length = 0;
      await context.close();
      await guarded.close();
    }
  });

  it('lets a page of a guarded context that has no guard of its own load nothing', async () => {
    const { context } = await guardedPage();
    try {
      const other = await context.newPage();
      await expect(other.goto(`${origin}/unguarded`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
      expect(served).not.toContain('/unguarded');
    } finally {
      await context.close();
    }
  });

  it("leaves another context's pages alone", async () => {
    await guardedPage().then(({ context }) => context.close());
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${listener.origin}/elsewhere`);
      expect(listener.requests).toEqual(['GET /elsewhere']);
    } finally {
      listener.requests.length = 0;
      await context.close();
    }
  });

  it('keeps the HTTP cache on under the whole guard: a cacheable script is fetched once over three loads', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await RequestGuard.install(page, parsePolicy({ origins: [origin] }));
      const before = served.filter((path) => path === '/app.js').length;
      for (let load = 0; load < 3; load++) await page.goto(`${origin}/cached`);
      expect(served.filter((path) => path === '/app.js').length - before).toBe(1);
    } finally {
      await context.close();
    }
  });
});
