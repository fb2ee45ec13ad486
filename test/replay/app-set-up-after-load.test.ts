import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type PagesServer, servePages } from '../support/pages-server.js';
import { tempDir } from '../support/temp.js';
import { handWrittenCapability } from './helpers.js';

// A mail client as Roundcube is one: the mail page's script sets the app up after the page
// has loaded, asks for the folder's list over a script request, and ignores a folder click
// until the list has come (the app is busy). Both folders hold "Re: 2". A replay that clicks
// the folder as soon as the document loaded reads the inbox's row, not the draft's.
const FOLDERS: Record<string, Array<[string, string]>> = {
  Inbox: [
    ['Re: 2', 'in the inbox'],
    ['Lunch on Friday?', 'in the inbox'],
  ],
  Drafts: [['Re: 2', 'a draft']],
};

const COMPOSE = '<!doctype html><title>Compose</title><main><a href="/mail">Mail</a></main>';
const MAIL = `<!doctype html><title>Mail</title><main>
<nav><a href="#" id="Inbox">Inbox</a> <a href="#" id="Drafts">Drafts</a></nav>
<p id="status"></p><table><thead><tr><th>Subject</th><th>Where</th></tr></thead><tbody id="list"></tbody></table>
</main><script src="/app.js"></script>`;
const APP = `let busy = false;
async function list(name) {
  if (busy) return;
  busy = true;
  document.getElementById('status').textContent = 'Loading...';
  const rows = await (await fetch('/folder?name=' + name)).json();
  document.getElementById('list').innerHTML = rows.map(([subject, where]) => '<tr><td>' + subject + '</td><td>' + where + '</td></tr>').join('');
  document.getElementById('status').textContent = name;
  busy = false;
}
for (const name of ['Inbox', 'Drafts'])
  document.getElementById(name).addEventListener('click', (event) => { event.preventDefault(); list(name); });
list('Inbox');`;

let server: PagesServer;
let origin: string;
let browser: Browser;
const evidence = tempDir('lift-set-up-after-load-');

beforeAll(async () => {
  // The app's script and its list arrive a while after the document, as on a loaded server.
  server = await servePages((url) => {
    if (url.pathname === '/app.js') return { body: APP, type: 'text/javascript', afterMs: 300 };
    if (url.pathname === '/folder') {
      const rows = FOLDERS[url.searchParams.get('name') ?? ''] ?? [];
      return { body: JSON.stringify(rows), type: 'application/json', afterMs: 500 };
    }
    return { body: url.pathname === '/mail' ? MAIL : COMPOSE };
  });
  origin = server.origin;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  evidence.remove();
});

const main = <L>(locator: L) => ({ frame: [], locator });

function draftsCapability(): Capability {
  return handWrittenCapability({
    name: 'draft_where',
    intent: 'Open the Drafts folder and read where the message "Re: 2" is',
    inputs: [{ name: 'kind', type: 'string' }],
    outputs: [{ name: 'where', type: 'string' }],
    preconditions: { origin, path: '/compose', fingerprint: 'not-checked' },
    steps: [
      {
        version: 1,
        op: 'click',
        target: main({ by: 'role', role: 'link', name: 'Mail' }),
        expect: { kind: 'visible', target: main({ by: 'role', role: 'link', name: 'Drafts' }) },
      },
      {
        version: 1,
        op: 'click',
        target: main({ by: 'role', role: 'link', name: 'Drafts' }),
        expect: { kind: 'none' },
      },
      {
        version: 1,
        op: 'read',
        target: main({ by: 'cell', key: 'Subject', row: 'Re: 2', column: 'Where' }),
        output: 'where',
        expect: { kind: 'none' },
      },
    ],
    outcomes: ['found'],
    checkpoint: {
      target: main({ by: 'cell', key: 'Subject', row: 'Re: 2', column: 'Where' }),
      equals: { input: 'kind' },
      match: 'exact',
    },
  });
}

describe('a step that loads a page its scripts set up afterwards', () => {
  it('waits for the set-up before the next step, so a folder click is not lost while the app is busy', {
    timeout: 60_000,
  }, async () => {
    const page = await browser.newPage();
    try {
      const result = await replayCapability(
        draftsCapability(),
        { kind: 'a draft' },
        { page, layoutTolerant: true, evidenceDir: evidence.path },
      );
      expect(result).toMatchObject({ outcome: 'found', outputs: { where: 'a draft' } });
    } finally {
      await page.close();
    }
  });
});
