import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performAction } from '../../../src/rungs/ui/act.js';
import { type PageOnServer, pageOnServer } from './page-on-server.js';

// A search box whose Enter a script handles: the page shows "Searching…" at once and goes to
// the result a moment later, so the step's change settles before the navigation begins. The
// next step names a link of the result page (MediaWiki's search, then "View history").
const SEARCH = `<!doctype html><title>Wiki</title><main><p id="state"></p>
<label>Search <input id="q"></label></main><script>
document.getElementById('q').addEventListener('keydown', (event) => {
  if (event.key !== 'Enter') return;
  document.getElementById('state').textContent = 'Searching…';
  setTimeout(() => { location.href = '/result'; }, 400);
});
</script>`;
const RESULT = `<!doctype html><title>Result</title><main><h1>Onboarding handbook</h1>
<a href="/history">View history</a></main>`;

let served: PageOnServer;
/** How long the result page takes to answer: a slow server, or a loaded machine. */
let resultDelayMs = 0;

beforeAll(async () => {
  served = await pageOnServer((request, response) => {
    const answer = () => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(request.url === '/result' ? RESULT : SEARCH);
    };
    if (request.url === '/result') setTimeout(answer, resultDelayMs);
    else answer();
  }, 'lift-late-navigation-');
});
afterAll(() => served?.close());

/** Enter in the search box, then the result page's "View history" link: both executed, the history reached. */
async function searchThenHistory(deadlineMs: number): Promise<void> {
  const { harness, page } = served;
  await harness.goto(`${served.origin}/`);
  const environment = harness.actEnvironment(new Map(), {}, Date.now() + deadlineMs);
  const box = { frame: [], locator: { by: 'role' as const, role: 'textbox', name: 'Search' } };
  const press = await performAction(environment, { op: 'press', key: 'Enter', target: box }, 0);
  expect(press.status, press.message).toBe('executed');
  const link = { frame: [], locator: { by: 'role' as const, role: 'link', name: 'View history' } };
  const click = await performAction(environment, { op: 'click', target: link }, 1);
  expect(click.status, click.message).toBe('executed');
  await page.waitForURL(/\/history$/, { timeout: 10_000 });
}

describe('a step after one whose navigation starts late', () => {
  it('finds its target on the page that came, not on the one that left', () => searchThenHistory(20_000));

  it('finds its target on the page that came, however long that page takes to answer', async () => {
    // Longer than one look again (2 s): the rehearsal's MediaWiki search under load.
    resultDelayMs = 3_500;
    await searchThenHistory(30_000);
  }, 60_000);
});
