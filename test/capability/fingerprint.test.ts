import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { transformSync } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageFingerprint, readSkeleton, settledFingerprint } from '../../src/capability/fingerprint.js';
import { readFacts } from '../../src/replay/classify.js';
import { fingerprintMismatch } from '../../src/replay/start-and-end.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';

const FORM = (order: 'normal' | 'reversed', buttonLabel = 'Look up') => {
  const parts = [
    '<h2>Member lookup</h2>',
    '<label>Member ID <input name="id"></label>',
    `<button>${buttonLabel}</button>`,
    '<button aria-label="Close panel">×</button>',
    '<select aria-label="Branch"><option>Harbour</option></select>',
  ];
  const ordered = order === 'normal' ? parts : [...parts].reverse();
  return `<!doctype html><title>Members</title><main><form>${ordered.join('')}</form>
  <button style="display:none">Hidden</button><div aria-hidden="true"><button>Decoration</button></div>
  <table><tr><th>Name</th></tr><tr><td>Data is not structure</td></tr></table>
  <iframe title="Workspace" srcdoc="<h3>Inside</h3><input type=checkbox aria-label='Active'>"></iframe></main>`;
};

describe('the start page fingerprint', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser.close();
  });

  async function show(html: string) {
    await page.setContent(html, { waitUntil: 'load' });
    return pageFingerprint(page);
  }

  it('lists the roles and names a person sees, across frames, and leaves data and hidden things out', async () => {
    const { skeleton } = await show(FORM('normal'));
    expect(skeleton).toEqual([
      'button "Close panel"',
      'button "Look up"',
      'checkbox "Active"',
      'combobox "Branch"',
      'form',
      'heading "Inside"',
      'heading "Member lookup"',
      'iframe "Workspace"',
      'textbox "Member ID"',
    ]);
  });

  it('waits for a page too busy to answer at once instead of fingerprinting nothing', {
    timeout: 60_000,
  }, async () => {
    const calm = await show(FORM('normal'));
    // Once loaded, the page's own script holds its only thread for 8 s (a loaded machine looks the same).
    await page.setContent(
      `${FORM('normal')}<script>addEventListener('load', () => setTimeout(() => { const end = Date.now() + 8000; while (Date.now() < end) {} }, 100))</script>`,
      { waitUntil: 'load' },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const busy = await pageFingerprint(page);
    expect(busy.skeleton.length).toBeGreaterThan(0);
    expect(busy.fingerprint).toBe(calm.fingerprint);
  });

  it('reads a document that is still arriving only once it has loaded (a sign-in redirect just committed)', async () => {
    const calm = await show(FORM('normal'));
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<!doctype html><title>Members</title>');
      setTimeout(
        () => response.end(FORM('normal').replace('<!doctype html><title>Members</title>', '')),
        1_500,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { waitUntil: 'commit' });
      expect((await pageFingerprint(page)).fingerprint).toBe(calm.fingerprint);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('is the same when the page is rearranged and differs when a button is renamed', async () => {
    const normal = await show(FORM('normal'));
    const reversed = await show(FORM('reversed'));
    const renamed = await show(FORM('normal', 'Search'));
    expect(reversed.fingerprint).toBe(normal.fingerprint);
    expect(renamed.fingerprint).not.toBe(normal.fingerprint);
  });

  it('is read once the page has built itself, so a page read at its load event still matches', async () => {
    // Like phpMyAdmin: after the load event, its script adds the list's buttons and a console.
    const built = `<!doctype html><title>Rows</title><h2>Rows</h2><div id="later"></div><script>
      addEventListener('load', () => setTimeout(() => {
        document.getElementById('later').innerHTML = '<button>Export</button><input type=checkbox aria-label="Check all">';
      }, 400));</script>`;
    await page.setContent(built, { waitUntil: 'load' });
    const atLoad = await pageFingerprint(page);
    const settled = await settledFingerprint(page);
    expect(atLoad.skeleton).not.toContain('button "Export"');
    expect(settled.skeleton).toContain('button "Export"');
    // Discovery stored the built page; a replay reading at the load event is not a changed screen.
    await page.setContent(built, { waitUntil: 'load' });
    const capability = {
      preconditions: { origin: 'http://127.0.0.1', path: '/rows', fingerprint: settled.fingerprint },
    } as Parameters<typeof fingerprintMismatch>[1];
    const early = (await pageFingerprint(page)).skeleton;
    expect(await fingerprintMismatch(page, capability, early, 'not_started')).toBeUndefined();
  });

  it('knows the page discovery read at its load event at once, without waiting for its scripts', async () => {
    // Like phpMyAdmin: a field that its script takes away a moment after the load event (the
    // moment is longer on the replay's load, as a busy server's scripts come later).
    const later = (
      ms: number,
    ) => `<!doctype html><title>Rows</title><h2>Rows</h2><div id="search"><input aria-label="Quick search"></div>
      <script>addEventListener('load', () => setTimeout(() => document.getElementById('search').remove(), ${ms}));</script>`;
    await page.setContent(later(300), { waitUntil: 'load' });
    // Discovery's read: the first look is the page at its load event, the answer the page built.
    const discovered = await settledFingerprint(page, 10_000);
    expect(discovered.skeleton).not.toContain('textbox "Quick search"');
    expect(discovered.first).toBeDefined();
    expect(discovered.first).not.toBe(discovered.fingerprint);
    const capability = {
      preconditions: {
        origin: 'http://127.0.0.1',
        path: '/rows',
        fingerprint: discovered.fingerprint,
        loadFingerprint: discovered.first,
      },
    } as Parameters<typeof fingerprintMismatch>[1];
    await page.setContent(later(5_000), { waitUntil: 'load' });
    const atLoad = (await pageFingerprint(page)).skeleton;
    expect(await fingerprintMismatch(page, capability, atLoad, 'not_started')).toBeUndefined();
    // It did not wait for the script: the field is still there.
    expect(await page.getByRole('textbox', { name: 'Quick search' }).count()).toBe(1);
    // Another page at its load event is neither: it is read again until known.
    await page.setContent(FORM('normal'), { waitUntil: 'load' });
    const other = (await pageFingerprint(page)).skeleton;
    const error = await fingerprintMismatch(page, capability, other, 'not_started', 4_000);
    expect(error?.code).toBe('SURFACE_CHANGED');
  }, 60_000);

  describe('says TIMEOUT, never SURFACE_CHANGED, for a start page it could not see at rest', () => {
    const capabilityOf = (fingerprint: string) =>
      ({
        preconditions: { origin: 'http://127.0.0.1', path: '/start', fingerprint },
      }) as Parameters<typeof fingerprintMismatch>[1];

    it('a different page at rest is a changed screen', async () => {
      const expected = (await show(FORM('normal'))).fingerprint;
      await show(FORM('normal', 'Search'));
      const error = await fingerprintMismatch(page, capabilityOf(expected), undefined, 'not_started', 4_000);
      expect(error?.code).toBe('SURFACE_CHANGED');
    });

    it('a page its scripts keep rebuilding is not known to differ when the bound runs out', async () => {
      const expected = (await show(FORM('normal'))).fingerprint;
      // A button changes its name every 100 ms: no read of it ever holds still.
      await page.setContent(
        `${FORM('normal')}<div id="flicker"><button>Loading</button></div><script>setInterval(() => {
          const slot = document.getElementById('flicker');
          slot.innerHTML = slot.textContent === 'Loading' ? '<button>Waiting</button>' : '<button>Loading</button>';
        }, 100)</script>`,
        { waitUntil: 'load' },
      );
      const started = Date.now();
      const error = await fingerprintMismatch(page, capabilityOf(expected), undefined, 'not_started', 3_000);
      expect(error?.code).toBe('TIMEOUT');
      expect(error?.outcome).toBe('not_started');
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('a page too busy to be read quickly (a loaded machine) is known to differ only once it is at rest', {
      timeout: 60_000,
    }, async () => {
      const expected = (await show(FORM('normal'))).fingerprint;
      // Another screen, whose own script holds its only thread for 6 s once loaded.
      await page.setContent(
        `${FORM('normal', 'Search')}<script>addEventListener('load', () => setTimeout(() => { const end = Date.now() + 6000; while (Date.now() < end) {} }, 50))</script>`,
        { waitUntil: 'load' },
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const busy = await fingerprintMismatch(page, capabilityOf(expected), undefined, 'not_started', 3_000);
      expect(busy?.code).toBe('TIMEOUT');
      // The same page at rest: now it is known to be another screen.
      const atRest = await fingerprintMismatch(page, capabilityOf(expected), undefined, 'not_started', 3_000);
      expect(atRest?.code).toBe('SURFACE_CHANGED');
    });
  });

  it('reads pages with functions that survive a bundler keeping names (as tsx does)', () => {
    // A named helper inside a page function becomes __name(...), which the page does not have.
    for (const pageFunction of [readSkeleton, readFacts]) {
      const source = pageFunction.toString();
      const body = source.slice(source.indexOf('{') + 1, source.lastIndexOf('}'));
      // An anonymous wrapper, so that only names inside the page function count.
      const { code } = transformSync(`(() => {${body}})();`, { keepNames: true, loader: 'js' });
      expect(code, pageFunction.name).not.toContain('__name(');
    }
    // And the check does catch a named helper.
    const { code } = transformSync('(() => { const text = (s) => s; return text("x"); })();', {
      keepNames: true,
      loader: 'js',
    });
    expect(code).toContain('__name(');
  });
});
