import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { type PagesServer, servePages } from '../support/pages-server.js';
import { tempDir } from '../support/temp.js';
import { handWrittenCapability } from './helpers.js';

// A list whose header is on the page at once and whose rows come later: fetched by a script
// (answered after 300 ms), then drawn on a timer 120 ms after the answer, with no request in
// flight meanwhile. A lookup answers not_found without waiting a fixed moment after every
// look, so this is what it must still wait for: a row that is there is found, never called
// absent; a row that is not is not_found.
const ROWS = [
  ['ada', 'ada@example.test'],
  ['grace', 'grace@example.test'],
];
const PAGE = `<!doctype html><title>People</title><main><h1>People</h1>
<table><thead><tr><th>Name</th><th>Email</th></tr></thead><tbody id="rows"></tbody></table>
</main><script>
fetch('/rows').then((response) => response.json()).then((rows) => setTimeout(() => {
  document.getElementById('rows').innerHTML = rows.map(([name, email]) => '<tr><td>' + name + '</td><td>' + email + '</td></tr>').join('');
}, 120));
</script>`;

let server: PagesServer;
let origin: string;
let browser: Browser;
const evidence = tempDir('lift-late-row-');

beforeAll(async () => {
  server = await servePages((url) =>
    url.pathname === '/rows'
      ? { body: JSON.stringify(ROWS), type: 'application/json', afterMs: 300 }
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

const cell = (column: string): Target => ({
  frame: [],
  locator: { by: 'cell', key: 'Name', row: '{{input.name}}', column },
});

function emailLookup(): Capability {
  return handWrittenCapability({
    name: 'email_lookup',
    intent: "Read a person's email from the People list",
    inputs: [{ name: 'name', type: 'string' }],
    outputs: [{ name: 'email', type: 'string' }],
    preconditions: { origin, path: '/people', fingerprint: 'not-checked' },
    steps: [{ version: 1, op: 'read', target: cell('Email'), output: 'email', expect: { kind: 'none' } }],
    outcomes: ['found', 'not_found'],
    checkpoint: { target: cell('Name'), equals: { input: 'name' }, match: 'exact' },
  });
}

describe('a lookup in a list whose rows come after the page', () => {
  it('finds a row drawn on a timer after the rows were fetched, and calls a missing one not_found', {
    timeout: 60_000,
  }, async () => {
    const page = await browser.newPage();
    try {
      for (let round = 0; round < 3; round++) {
        const found = await replayCapability(
          emailLookup(),
          { name: 'grace' },
          { page, layoutTolerant: true, evidenceDir: evidence.path },
        );
        expect(found).toMatchObject({ outcome: 'found', outputs: { email: 'grace@example.test' } });
        const missing = await replayCapability(
          emailLookup(),
          { name: 'linus' },
          { page, layoutTolerant: true, evidenceDir: evidence.path },
        );
        expect(missing).toMatchObject({ outcome: 'not_found', outputs: {} });
      }
    } finally {
      await page.close();
    }
  });
});
