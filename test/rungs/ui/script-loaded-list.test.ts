import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performAction } from '../../../src/rungs/ui/act.js';
import { launchBrowser } from '../../../src/rungs/ui/browser.js';
import { PageHarness } from '../../../src/rungs/ui/harness.js';
import { parsePolicy } from '../../../src/rungs/ui/policy.js';
import { tempDir } from '../../support/temp.js';

// A mail client as Roundcube is one: clicking a folder shows "Loading..." at once and fills the
// list from a script request a moment later. Both folders hold a message called "Re: 2", so a
// click judged settled at "Loading..." lets the next step act on the old folder's row.
const FOLDERS: Record<string, string[]> = {
  Inbox: ['Re: 2', 'Weekly report'],
  Drafts: ['Re: 2 (draft)', 'Offsite agenda'],
};

const PAGE = `<!doctype html><title>Mail</title><main>
<nav><button id="inbox">Inbox</button> <button id="drafts">Drafts</button></nav>
<p id="status"></p><ul id="list"></ul></main><script>
function show(name, rows) {
  document.getElementById('status').textContent = name;
  document.getElementById('list').innerHTML = rows.map((row) => '<li><a href="#">' + row + '</a></li>').join('');
}
show('Inbox', ${JSON.stringify(FOLDERS.Inbox)});
for (const name of ['Inbox', 'Drafts']) {
  document.getElementById(name.toLowerCase()).addEventListener('click', async () => {
    document.getElementById('status').textContent = 'Loading...';
    const rows = await (await fetch('/folder?name=' + name)).json();
    show(name, rows);
  });
}
</script>`;

let server: Server;
let origin: string;
let browser: Browser;
let page: Page;
let harness: PageHarness;
const dir = tempDir('lift-script-list-');

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/folder') {
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(FOLDERS[url.searchParams.get('name') ?? ''] ?? []));
      }, 700);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  page = await browser.newPage();
  harness = await PageHarness.open(page, { policy: parsePolicy({ origins: [origin] }), outputDir: dir.path });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  dir.remove();
});

describe('a click whose page fills itself from a script request', () => {
  it('is judged settled once the request has answered and the list shows the new folder', async () => {
    await harness.goto(`${origin}/`);
    const step = await performAction(
      harness.actEnvironment(new Map(), {}, Date.now() + 10_000),
      { op: 'click', target: { frame: [], locator: { by: 'role', role: 'button', name: 'Drafts' } } },
      0,
    );
    expect(step.status, step.message).toBe('executed');
    // biome-ignore lint/performance/useDomNodeTextContent: what a person sees after the click.
    const shown = await page.locator('main').innerText();
    expect(shown).toContain('Offsite agenda');
    expect(shown).not.toContain('Loading...');
  });
});
