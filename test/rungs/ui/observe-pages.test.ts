import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageHarness } from '../../../src/rungs/ui/harness.js';
import { tokenCounter } from '../../../src/rungs/ui/tokens.js';
import { type PageOnServer, pageOnServer } from './page-on-server.js';

let origin: string;

// A handbook: 40 sections of prose with a link each, one of them about "Badge renewal".
const HANDBOOK = Array.from(
  { length: 40 },
  (_, index) =>
    `<h2>Section ${index + 1}</h2><p>${index === 27 ? 'Badge renewal happens every spring at the front desk. ' : ''}${'Every team keeps its own runbook and reviews it each quarter with the people on call. '.repeat(3)}</p><a href="/s/${index + 1}">Read section ${index + 1}</a>`,
).join('');

let served: PageOnServer;
let page: Page;
let harness: PageHarness;

beforeAll(async () => {
  served = await pageOnServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<!doctype html><title>Handbook</title><main>${HANDBOOK}<button>Save</button><input aria-label="Search"></main>`,
    );
  }, 'lift-observe-pages-');
  ({ origin, page, harness } = served);
  await harness.goto(`${origin}/start`);
  // A nonce in the query, as admin pages carry them.
  await harness.goto(`${origin}/handbook?_wpnonce=${'9f3a'.repeat(10)}&section=all`);
});
afterAll(() => served?.close());

describe('an observation that reaches everything and costs little', () => {
  it('pages a long page within the o200k cap, and every page can be asked for', async () => {
    const count = await tokenCounter();
    const first = (await harness.observe(1)).observation;
    expect(first.pages).toBeGreaterThan(1);
    expect(first.tokens).toBe(count(first.text));
    expect(first.tokens).toBeLessThanOrEqual(2_000);
    expect(first.text).toContain(`… page 1 of ${first.pages}: observe with {"page": 2} for the rest`);
    const texts = [first.text];
    for (let next = 2; next <= first.pages; next++) {
      const { observation } = await harness.observe(next, undefined, next);
      expect(observation.page).toBe(next);
      expect(count(observation.text)).toBeLessThanOrEqual(2_000);
      texts.push(observation.text);
    }
    // Nothing is lost between pages: the last section and the controls after it are there.
    const all = texts.join('\n');
    expect(all).toContain('## Section 40');
    expect(all).toMatch(/\[e\d+\] button "Save"/);
    expect(all).not.toContain('more lines left out');
  });

  it('finds any text, not only table rows, with the heading it sits under', async () => {
    const { observation } = await harness.observe(10, { match: 'badge renewal' });
    expect(observation.text).toContain('## Section 28');
    expect(observation.text).toContain('Badge renewal happens every spring');
    expect(observation.text).not.toContain('## Section 27');
    expect(observation.pages).toBe(1);
    const none = (await harness.observe(11, { match: 'parking permit' })).observation;
    expect(none.text).toContain('Nothing on the page holds "parking permit".');
  });

  it('keeps refs stable within a page and gives them no frame prefix when there are no frames', async () => {
    // Playwright prefixes the refs of a top document that replaced another (f1e5, f2e8).
    expect(await page.ariaSnapshot({ mode: 'ai' })).toMatch(/\[ref=f\d+e\d+\]/);
    const before = (await harness.observe(20)).observation.elements;
    await page.getByRole('textbox', { name: 'Search' }).fill('runbook');
    const after = (await harness.observe(21)).observation.elements;
    expect(after.map((element) => element.ref)).toEqual(before.map((element) => element.ref));
    expect(before.every((element) => /^e\d+$/.test(element.ref))).toBe(true);
  });

  it('shortens the URL: a nonce in the query says nothing to a model', async () => {
    const { observation } = await harness.observe(30);
    const [firstLine] = observation.text.split('\n');
    expect(firstLine).toBe('page "Handbook" /handbook?_wpnonce=9f3a9f3a…&section=all');
  });
});
