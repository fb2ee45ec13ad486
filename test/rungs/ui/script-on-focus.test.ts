import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePolicy, UiSession } from '../../../src/rungs/ui/index.js';
import { type PagesServer, servePages } from '../../support/pages-server.js';
import { type Harness, startHarness } from './helpers.js';

// MediaWiki's search form, in a few lines: its first submit button is the full-text search,
// which a script loaded when the box is first focused removes, so that Enter goes to the page
// of that title. Pressing Enter right after the fill, before that script came, lands on the
// search results instead, where the next step's link is not.
const FORM = `<!doctype html><title>Wiki</title><main><form action="/search">
<label>Search <input name="search" id="q"></label>
<input type="submit" name="fulltext" value="Search" class="fallback" hidden>
<input type="submit" name="go" value="Go">
</form></main><script>
document.getElementById('q').addEventListener('focus', () => {
  const script = document.createElement('script');
  script.src = '/suggest.js';
  document.head.append(script);
}, { once: true });
</script>`;
const SUGGEST = `document.querySelector('.fallback')?.remove();`;
const ARTICLE = `<!doctype html><title>Onboarding handbook</title><main><h1>Onboarding handbook</h1>
<a href="/history">View history</a></main>`;
const RESULTS = `<!doctype html><title>Search results</title><main><h1>Search results</h1>
<a href="/article">Onboarding handbook</a></main>`;
const HISTORY = `<!doctype html><title>History</title><main><h1>Revision history</h1></main>`;

let harness: Harness;
let server: PagesServer;
let origin: string;

beforeAll(async () => {
  harness = await startHarness();
  server = await servePages((url) => {
    // A slow module load: a loaded wiki takes this long, or longer.
    if (url.pathname === '/suggest.js') return { body: SUGGEST, type: 'text/javascript', afterMs: 700 };
    const body =
      url.pathname === '/search'
        ? url.searchParams.has('fulltext')
          ? RESULTS
          : ARTICLE
        : url.pathname === '/history'
          ? HISTORY
          : FORM;
    return { body };
  });
  origin = server.origin;
});

afterAll(async () => {
  await harness?.close();
  await server?.close();
});

describe('a batch whose fill sets the page to load a script', () => {
  it('presses Enter once that script has come, and clicks on the page Enter led to', async () => {
    const session = await UiSession.open({
      pool: harness.pool,
      profile: 'script-on-focus',
      outputDir: join(harness.dir, 'out-focus'),
      policy: parsePolicy({ origins: [origin] }),
      startUrl: `${origin}/`,
      inputs: { title: 'Onboarding handbook' },
    });
    harness.sessions.push(session);
    const box = { locator: { by: 'role' as const, role: 'textbox', name: 'Search' } };
    const result = await session.act([
      { op: 'fill', target: box, value: { input: 'title' } },
      { op: 'press', key: 'Enter', target: box },
      { op: 'click', target: { locator: { by: 'role', role: 'link', name: 'View history' } } },
    ]);
    expect(
      result.steps.map((step) => step.status),
      JSON.stringify(result.steps),
    ).toEqual(['executed', 'executed', 'executed']);
    expect(new URL(session.page.url()).pathname).toBe('/history');
  }, 60_000);
});
