import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { type PagesServer, servePages } from '../support/pages-server.js';
import { tempDir } from '../support/temp.js';
import { handWrittenCapability } from './helpers.js';

// Reads one after another take their first looks together, on a page nothing acts on in
// between. The page here is still coming when they start: the People rows are fetched (answered
// after 300 ms) and drawn 120 ms later, and in the same moment the job's state turns from
// "running" to "done". The first read waits for its row, so the second must read the page it
// would have read one after the other ("done"), never the look taken with the first ("running").
const PAGE = `<!doctype html><title>People</title><main><h1>People</h1>
<table><thead><tr><th>Name</th><th>Email</th></tr></thead><tbody id="rows"></tbody></table>
<h2>Jobs</h2><table><thead><tr><th>Job</th><th>State</th></tr></thead>
<tbody><tr><td>import</td><td id="state">running</td></tr></tbody></table>
</main><script>
fetch('/rows').then((response) => response.json()).then((rows) => setTimeout(() => {
  document.getElementById('rows').innerHTML = rows.map(([name, email]) => '<tr><td>' + name + '</td><td>' + email + '</td></tr>').join('');
  document.getElementById('state').textContent = 'done';
}, 120));
</script>`;

let server: PagesServer;
let origin: string;
let browser: Browser;
const evidence = tempDir('lift-reads-together-');

beforeAll(async () => {
  server = await servePages((url) =>
    url.pathname === '/rows'
      ? { body: JSON.stringify([['grace', 'grace@example.test']]), type: 'application/json', afterMs: 300 }
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

const person = (column: string): Target => ({
  frame: [],
  locator: { by: 'cell', key: 'Name', row: '{{input.name}}', column },
});
const job: Target = { frame: [], locator: { by: 'cell', key: 'Job', row: 'import', column: 'State' } };

function emailAndJob(): Capability {
  return handWrittenCapability({
    name: 'email_and_job',
    intent: "Read a person's email and the import job's state",
    inputs: [{ name: 'name', type: 'string' }],
    outputs: [
      { name: 'email', type: 'string' },
      { name: 'state', type: 'string' },
    ],
    preconditions: { origin, path: '/people', fingerprint: 'not-checked' },
    steps: [
      { version: 1, op: 'read', target: person('Email'), output: 'email', expect: { kind: 'none' } },
      { version: 1, op: 'read', target: job, output: 'state', expect: { kind: 'none' } },
    ],
    outcomes: ['found', 'not_found'],
    checkpoint: { target: person('Name'), equals: { input: 'name' }, match: 'exact' },
  });
}

describe('reads that take their first looks together', () => {
  it('read the page as it is once the first read found its row, not as it was when they began', {
    timeout: 60_000,
  }, async () => {
    const page = await browser.newPage();
    try {
      for (let round = 0; round < 3; round++) {
        const result = await replayCapability(
          emailAndJob(),
          { name: 'grace' },
          { page, layoutTolerant: true, evidenceDir: evidence.path },
        );
        expect(result).toMatchObject({
          outcome: 'found',
          outputs: { email: 'grace@example.test', state: 'done' },
          checkpoint: { passed: true },
        });
      }
    } finally {
      await page.close();
    }
  });
});
