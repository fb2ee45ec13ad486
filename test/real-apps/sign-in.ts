import type { Page } from 'playwright-core';
import type { Apps } from './bed.js';

type AnyApp = Apps[keyof Apps];

/**
 * Signs a page in through the application's own login form, as a person would, with
 * Playwright directly (the bed's tests and benchmarks; Lift's sign-in is what is under test
 * elsewhere). Resolves once the application shows a signed-in page.
 */
export async function signIn(page: Page, app: AnyApp, timeout = 30_000): Promise<void> {
  await page.goto(app.signInUrl, { timeout });
  const { user, password } = app.credentials;
  switch (app.name) {
    case 'wordpress':
      await page.getByLabel('Username or Email Address').fill(user);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.waitForURL(`${app.origin}/wp-admin/**`, { timeout });
      return;
    case 'mediawiki':
      await page.getByLabel('Username').fill(user);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL((url) => !url.search.includes('Special:UserLogin'), { timeout });
      return;
    case 'phpmyadmin':
      await page.getByLabel('Username:').fill(user);
      await page.getByLabel('Password:').fill(password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('link', { name: 'Log out' }).first().waitFor({ timeout });
      return;
    case 'roundcube':
      await page.getByLabel('Username').fill(user);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Login' }).click();
      // The first URL after login carries a one-time _token; the list shows once the mail task is up.
      await page.getByRole('table', { name: 'Email Messages Listing' }).waitFor({ timeout });
      return;
    case 'notes':
      await page.getByLabel('Username').fill(user);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'Sign out' }).waitFor({ timeout });
      return;
    case 'ttrss':
      // The labels are not tied to their boxes (no for=): the boxes are found by their names.
      await page.locator('input[name="login"]').fill(user);
      await page.locator('input[name="password"]').fill(password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('treeitem', { name: 'All articles' }).waitFor({ timeout });
      return;
    case 'redmine':
      await page.getByLabel('Login').fill(user);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByRole('link', { name: 'Sign out' }).waitFor({ timeout });
      return;
  }
}
