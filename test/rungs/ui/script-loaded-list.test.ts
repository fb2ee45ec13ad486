import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performAction } from '../../../src/rungs/ui/act.js';
import { type PageOnServer, pageOnServer } from './page-on-server.js';

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

let served: PageOnServer;

beforeAll(async () => {
  served = await pageOnServer((request, response) => {
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
  }, 'lift-script-list-');
});
afterAll(() => served?.close());

describe('a click whose page fills itself from a script request', () => {
  it('is judged settled once the request has answered and the list shows the new folder', async () => {
    const { harness, page } = served;
    await harness.goto(`${served.origin}/`);
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
