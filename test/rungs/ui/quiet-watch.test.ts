import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../../src/rungs/ui/browser.js';
import { QuietWatch } from '../../../src/rungs/ui/quiet.js';
import { type PageOnServer, pageOnServer, servesHtml } from './page-on-server.js';

// A watch begun before a look lets the look go out while the page settles. The look counts
// only when the watch says the page stayed quiet from its start on: a change after the watch
// began, however soon, or a request in flight, sends the replay to look again.
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
});

const FORM = `<!doctype html><title>Form</title><main><form><label>Subject <input name="s"></label></form></main>`;

describe('a watch begun before a look', () => {
  it('answers true on a page that stays still', async () => {
    await page.setContent(FORM);
    const watch = new QuietWatch(page, () => false);
    const { settled } = await watch.begin([page.mainFrame()], 5_000);
    expect(await page.getByLabel('Subject').count()).toBe(1);
    expect(await settled).toBe(true);
    watch.detach();
  });

  it('answers false when the page changes a moment after the watch began, and only once it is still again', async () => {
    await page.setContent(FORM);
    // The form re-renders every 10 ms for a second, as a select's listener that rebuilds it piece
    // by piece would: long enough that a loaded machine's pause before the watch begins (the
    // full suite once took 200 ms there) still leaves changes for it to see.
    await page.evaluate(() => {
      let times = 0;
      const timer = setInterval(() => {
        times++;
        const label = times < 100 ? `Title ${times}` : 'Heading';
        document.querySelector('form')!.innerHTML = `<label>${label} <input name="s"></label>`;
        if (times === 100) clearInterval(timer);
      }, 10);
    });
    const watch = new QuietWatch(page, () => false);
    const { settled } = await watch.begin([page.mainFrame()], 5_000);
    expect(await settled).toBe(false);
    // Settled means after the last re-render: the form it leaves is the one a look finds.
    expect(await page.getByLabel('Heading').count()).toBe(1);
    watch.detach();
  });

  it('watches every frame it is given: a change in the frame the step expects something in counts', async () => {
    await page.setContent(`${FORM}<iframe srcdoc="<p>side</p>"></iframe>`);
    await expect.poll(() => page.frames().length).toBe(2);
    const child = page.frames()[1]!;
    await child.evaluate(() => {
      let times = 0;
      const timer = setInterval(() => {
        document.body.append('later');
        if (++times === 20) clearInterval(timer);
      }, 10);
    });
    const watch = new QuietWatch(page, () => false);
    const { settled } = await watch.begin([page.mainFrame(), child], 5_000);
    expect(await settled).toBe(false);
    watch.detach();
  });
});

describe('a watch begun while a request is in flight', () => {
  let served: PageOnServer;
  beforeAll(async () => {
    const page = servesHtml(`${FORM}<script>window.slow = () => fetch('/slow');</script>`);
    served = await pageOnServer((request, response) => {
      if (request.url !== '/slow') return page(request, response);
      setTimeout(() => response.end('done'), 300);
    }, 'lift-quiet-watch-');
  });
  afterAll(() => served?.close());

  it('answers false, after the request is answered', async () => {
    const { page: servedPage, harness } = served;
    await harness.goto(`${served.origin}/`);
    const watch = new QuietWatch(servedPage, () => false);
    await servedPage.evaluate(() => {
      void (window as unknown as { slow: () => Promise<unknown> }).slow();
    });
    await expect.poll(() => watch.lastRequestAt).toBeGreaterThan(0);
    const { settled } = await watch.begin([servedPage.mainFrame()], 5_000);
    expect(await settled).toBe(false);
    watch.detach();
  });
});
