import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type MediaWikiApp, startApp } from './bed.js';
import { signIn } from './sign-in.js';

let app: MediaWikiApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('mediawiki'), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the MediaWiki bed', () => {
  it('signs the administrator in through Special:UserLogin and shows the main page', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    expect(page.url()).toBe(app.startUrl);
    await page
      .getByRole('link', { name: app.credentials.user, exact: true })
      .first()
      .waitFor({ timeout: 15_000 });
    await page.close();
  });

  it('reads the seeded pages, the redirect and the categories through api.php', async () => {
    const inventory = await app.state.page('Server inventory');
    expect(inventory?.text).toContain('| 12 || mail-1 || Al || Retired');
    expect(inventory?.categories).toEqual(['Infrastructure']);
    expect(await app.state.redirectTarget('Inventory')).toBe('Server inventory');
    expect((await app.state.categoryMembers('Incidents')).sort()).toEqual([
      'Cannot log in',
      'Contact form returns 500',
    ]);
    expect((await app.state.page('Onboarding handbook'))?.text.length).toBeGreaterThan(3_000);
    expect(await app.state.pageExists('No such page')).toBe(false);
  });

  it('sees a page created through the edit form, and forgets it after a reset', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    await page.goto(`${app.origin}/index.php?title=Lift_smoke_page&action=edit`);
    await page.locator('#wpTextbox1').fill('Written by the bed smoke test.\n\n[[Category:Incidents]]');
    await page.getByRole('button', { name: 'Save page' }).click();
    await page.waitForURL(/Lift_smoke_page/);
    const created = await app.state.page('Lift smoke page');
    expect(created).toMatchObject({ lastEditor: 'Admin', categories: ['Incidents'] });
    await page.close();

    await app.reset();
    expect(await app.state.pageExists('Lift smoke page')).toBe(false);
    expect(await app.state.pageExists('Tools')).toBe(true);
  });
});
