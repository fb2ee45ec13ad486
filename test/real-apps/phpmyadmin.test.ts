import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type PhpMyAdminApp, startApp } from './bed.js';
import { signIn } from './sign-in.js';

let app: PhpMyAdminApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('phpmyadmin'), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the phpMyAdmin bed', () => {
  it('signs the shop user in and shows the tables of the shop database', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    await page.goto(app.startUrl);
    await page.getByRole('rowheader', { name: 'customers', exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('rowheader', { name: 'orders', exact: true }).count()).toBe(1);
    await page.close();
  });

  it('reads the seeded rows with SQL', async () => {
    expect(await app.state.customer(2)).toEqual({
      id: 2,
      name: 'Copy Center Ltd',
      email: 'hello@copycenter.test',
      city: 'Leeds',
    });
    expect(await app.state.count('orders')).toBeGreaterThan(app.seed.rowsPerPage);
    expect((await app.state.order(4))?.note).toBe('Cannot log in to the portal; order taken by phone');
    expect(await app.state.tables()).toEqual(['customers', 'orders']);
  });

  it('sees a row inserted through the Insert form, and forgets it after a reset', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    await page.goto(`${app.origin}/index.php?route=/table/change&db=shop&table=customers`);
    const valueField = (column: string) =>
      page
        .getByRole('row', { name: new RegExp(`^${column} `) })
        .first()
        .locator('input[type=text], textarea')
        .first();
    await valueField('name').fill('Smoke Test GmbH');
    await valueField('email').fill('smoke@bed.test');
    await valueField('city').fill('Graz');
    await page.locator('#buttonYes').click();
    await page.getByText('1 row inserted').first().waitFor({ timeout: 15_000 });
    expect(await app.state.customerByEmail('smoke@bed.test')).toMatchObject({
      name: 'Smoke Test GmbH',
      city: 'Graz',
    });
    await page.close();

    await app.reset();
    expect(await app.state.customerByEmail('smoke@bed.test')).toBeUndefined();
    expect(await app.state.count('customers')).toBe(12);
  });
});
