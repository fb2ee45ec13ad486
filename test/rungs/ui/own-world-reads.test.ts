import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../../src/rungs/ui/browser.js';
import { readField } from '../../../src/rungs/ui/field-value.js';
import { centreOnScreen } from '../../../src/rungs/ui/on-screen.js';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 800, height: 600 } });
});
afterAll(async () => {
  await browser?.close();
});

const PAGE = `<!doctype html><title>Reach</title>
<a href="#" id="near">In view</a>
<div style="height: 3000px"></div>
<a href="#" id="far">Below the fold</a>
<a href="#" id="parked" style="position: relative; left: -9999em">Parked</a>
<input aria-label="Code" value="A-7">
<select aria-label="Kind"><option>one</option><option selected>two</option></select>
<div contenteditable="true" aria-label="Note"><p>first   line</p><p>second</p></div>`;

// The page's own scripts move every box they are asked about far off screen: a look made in
// the page's world would believe them, one made in Playwright's utility world does not.
const LYING_PAGE = `${PAGE}<script>
Element.prototype.getBoundingClientRect = () => new DOMRect(-5000, -5000, 10, 10);
Object.defineProperty(HTMLInputElement.prototype, 'value', { get: () => 'bent' });
</script>`;

const link = (id: string) => page.locator(`#${id}`);

describe('centreOnScreen', () => {
  it('tells a control in view from one below the fold and one parked off screen', async () => {
    // A document set up before the engine exists is asked in the page's world, with the same answers.
    await page.setContent(PAGE);
    expect(await centreOnScreen(link('near'))).toBe(true);
    await page.setContent(PAGE);
    expect(await centreOnScreen(link('near'))).toBe(true);
    expect(await centreOnScreen(link('far'))).toBe(false);
    expect(await centreOnScreen(link('parked'))).toBe(false);
    expect(await centreOnScreen(link('missing'))).toBe(false);
  });

  it("asks in Playwright's own world, which a page's scripts do not reach", async () => {
    await centreOnScreen(link('near'));
    await page.setContent(LYING_PAGE);
    expect(await page.evaluate(() => document.body.getBoundingClientRect().left)).toBe(-5000);
    expect(await centreOnScreen(link('near'))).toBe(true);
    expect(await centreOnScreen(link('far'))).toBe(false);
  });
});

describe('readField', () => {
  it("reads form fields in Playwright's own world and an editor's text as a person reads it", async () => {
    await page.setContent(LYING_PAGE);
    expect(await page.evaluate(() => document.querySelector('input')!.value)).toBe('bent');
    expect(await readField(page.getByLabel('Code'), 2_000)).toEqual({ value: 'A-7', editor: false });
    expect(await readField(page.getByLabel('Kind'), 2_000)).toEqual({ value: 'two', editor: false });
    expect(await readField(page.getByLabel('Note'), 2_000)).toEqual({
      value: 'first line second',
      editor: true,
    });
  });

  it('fails on a field that is not there with the timeout, not as an editor', async () => {
    await page.setContent(PAGE);
    await expect(readField(page.getByLabel('Nowhere'), 500)).rejects.toThrow(/Timeout/);
  });
});
