import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { startApp, type TtrssApp } from './bed.js';
import { signIn } from './sign-in.js';

let app: TtrssApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('ttrss'), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the Tiny Tiny RSS bed', () => {
  it('signs the administrator in and shows the feed tree with its categories', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    for (const name of ['All articles', 'Work', 'News', 'Starred', 'Uncategorized'])
      await page.getByRole('treeitem', { name, exact: true }).first().waitFor({ timeout: 15_000 });
    await page.close();
  });

  it('reads the seeded feeds, articles and labels with SQL', async () => {
    expect((await app.state.feeds()).map((feed) => feed.title)).toEqual([
      'Northwind Status',
      'Release notes',
      'Planet Debian',
      'Fresh articles',
      'Kitchen blog',
    ]);
    expect(await app.state.feedByTitle('Fresh articles')).toMatchObject({ category: 'Starred', unread: 1 });
    expect(await app.state.feedByTitle('Northwind Status')).toMatchObject({ category: 'Work', unread: 2 });
    expect(await app.state.article('Contact form returns 500')).toMatchObject({
      author: 'Jane Doe',
      feed: 'Northwind Status',
      starred: true,
      unread: true,
      labels: ['Urgent'],
    });
    expect(await app.state.article('2')).toMatchObject({ author: 'Bob Stone', feed: 'Release notes' });
    expect(await app.state.article('No such article')).toBeUndefined();
    expect((await app.state.labels()).map((label) => label.caption)).toEqual(['Urgent', 'Unread', 'Later']);
    expect(await app.state.categories()).toEqual(['Work', 'News', 'Starred']);
  });

  it('sees an article starred in the headline list, and forgets it after a reset', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    await page.getByRole('treeitem', { name: 'All articles', exact: true }).click();
    const headline = page.locator('.hl, .cdm').filter({ hasText: 'Lunch on Friday?' }).first();
    await headline.waitFor({ timeout: 15_000 });
    // The star is the headline's own toggle; tt-rss stores it over XHR.
    await headline.locator('.icon-star, i.material-icons', { hasText: 'star' }).first().click();
    await expect
      .poll(async () => (await app.state.article('Lunch on Friday?'))?.starred, { timeout: 15_000 })
      .toBe(true);
    await page.close();

    await app.reset();
    expect((await app.state.article('Lunch on Friday?'))?.starred).toBe(false);
  });

  it('signs a browser out with a reset (its sessions live in the database)', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    // tt-rss polls its counters, and every request writes its session back at its end (an
    // INSERT when the row is gone): a request in flight across the reset would bring it back.
    await page.goto('about:blank');
    await app.reset();
    await page.goto(app.startUrl);
    await page.locator('input[name="login"]').waitFor({ timeout: 15_000 });
    await page.close();
  });
});
