import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../../src/rungs/ui/browser.js';
import { resolveElement } from '../../../src/rungs/ui/element.js';
import { PageHarness } from '../../../src/rungs/ui/harness.js';
import { resolveTarget } from '../../../src/rungs/ui/locator.js';
import { parsePolicy } from '../../../src/rungs/ui/policy.js';

// Shaped like phpMyAdmin's tabs and row actions: each link holds an image and a text that
// repeats it, which Playwright's AI snapshot prints as a nameless link.
const TABS = `
<ul>
  <li><a href="#browse"><img alt="Browse" src="data:,">&nbsp;Browse</a></li>
  <li><a href="#structure"><img alt="Structure" src="data:,">&nbsp;Structure</a></li>
  <li><a href="#insert"><img alt="Insert" src="data:,">Insert</a></li>
</ul>
<form onsubmit="event.preventDefault()">
  <button type="button" onclick="document.title = 'first'">Go</button>
  <button type="button" onclick="document.title = 'second'">Go</button>
  <button type="button" onclick="document.title = 'third'">Go</button>
</form>
<table>
  <thead><tr><th colspan="4"><img alt="Full texts" src="data:,"></th><th>id</th><th>name</th></tr></thead>
  <tbody>
    <tr><td><input type="checkbox"></td><td><a href="#e1"><img alt="Edit" src="data:,">&nbsp;Edit</a></td><td><a href="#c1"><img alt="Copy" src="data:,">&nbsp;Copy</a></td><td><a href="#d1"><img alt="Delete" src="data:,">Delete</a></td><td>1</td><td>Acme</td></tr>
    <tr><td><input type="checkbox"></td><td><a href="#e3"><img alt="Edit" src="data:,">&nbsp;Edit</a></td><td><a href="#c3"><img alt="Copy" src="data:,">&nbsp;Copy</a></td><td><a href="#d3"><img alt="Delete" src="data:,">Delete</a></td><td>3</td><td>Jane Doe</td></tr>
  </tbody>
</table>`;

let browser: Browser;
let page: Page;
let harness: PageHarness;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  harness = await PageHarness.open(page, {
    policy: parsePolicy({ version: 1, origins: ['http://127.0.0.1'] }),
  });
  await page.setContent(TABS);
});
afterAll(async () => {
  await browser?.close();
});

describe('names an AI snapshot leaves out because the content repeats them', () => {
  it('shows each link by the words of its content, so they can be told apart', async () => {
    const { observation } = await harness.observe(1);
    expect(observation.text).toContain('link "Browse Browse"');
    expect(observation.text).toContain('link "Structure Structure"');
    const links = observation.text.split('\n').filter((line) => line.includes('] link'));
    expect(links.filter((line) => line.includes('name not unique'))).toEqual([]);
  });

  it('stores the name the page computes, spaces and all, and it resolves on the live page', async () => {
    const { index } = await harness.observe(2);
    const [ref, record] = [...index.elements].find(([, element]) => element.name.startsWith('Insert'))!;
    expect(record.name).toBe('Insert Insert');
    const resolved = await resolveElement(page, { ref, record });
    if (!resolved.ok) throw new Error(resolved.reason);
    // Image and text with no space between them: the accessible name runs them together.
    expect(resolved.element.target.locator).toEqual({ by: 'role', role: 'link', name: 'InsertInsert' });
    const live = await resolveTarget(page, resolved.element.target);
    expect(await live.getAttribute('href')).toBe('#insert');
  });
});

describe('a ref whose role and name the page repeats', () => {
  it('is stored as the nth of its matches, and that target resolves to it alone', async () => {
    const { index } = await harness.observe(3);
    const goes = [...index.elements].filter(([, element]) => element.name === 'Go');
    expect(goes).toHaveLength(3);
    const [ref, record] = goes[2]!;
    const resolved = await resolveElement(page, { ref, record });
    if (!resolved.ok) throw new Error(resolved.reason);
    expect(resolved.element.target).toEqual({
      frame: [],
      locator: { by: 'role', role: 'button', name: 'Go' },
      nth: 3,
    });
    await (await resolveTarget(page, resolved.element.target)).click();
    expect(await page.title()).toBe('third');
  });
});

describe('a table whose first header spans the row actions (phpMyAdmin)', () => {
  it('shows the header over the columns it spans, so each cell sits under its own', async () => {
    const { observation } = await harness.observe(4);
    expect(observation.text).toContain('table (2 rows): Full texts |  |  |  | id | name');
  });

  it('stores a row action clicked by ref as the control in the row whose key column holds the id', async () => {
    const { observation, index } = await harness.observe(5);
    const ref = /\| \[(e\d+)\] Delete Delete \| 3 \|/.exec(observation.text)?.[1];
    expect(ref, observation.text).toBeDefined();
    const resolved = await resolveElement(page, { ref: ref!, record: index.elements.get(ref!)! });
    if (!resolved.ok) throw new Error(resolved.reason);
    expect(resolved.element.target.locator).toEqual({
      by: 'cell',
      row: '3',
      column: 'Full texts',
      key: 'id',
      element: { role: 'link', name: 'DeleteDelete' },
    });
    expect(await (await resolveTarget(page, resolved.element.target)).getAttribute('href')).toBe('#d3');
  });
});
