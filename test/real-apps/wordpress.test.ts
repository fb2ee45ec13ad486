import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { startApp, type WordPressApp } from './bed.js';
import { signIn } from './sign-in.js';

let app: WordPressApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('wordpress'), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The notices and errors WordPress shows on the page, for a test that stayed on a form. */
async function notices(page: Page): Promise<string> {
  const texts = await page
    .locator('.notice, .error, #message')
    .allInnerTexts()
    .catch(() => []);
  return texts.length > 0 ? texts.join(' | ') : 'no notice shown';
}

describe('the WordPress bed', () => {
  it('signs the administrator in through wp-login.php and shows the dashboard', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(app.startUrl);
    await page.close();
  });

  it('reads the seeded posts, users and categories through the REST API', async () => {
    const post = await app.state.postByTitle('Contact form returns 500');
    expect(post).toMatchObject({ status: 'publish', authorId: app.seed.users.jdoe });
    expect((await app.state.postByTitle('Draft: pricing page'))?.status).toBe('draft');
    expect(await app.state.userByLogin('user')).toMatchObject({
      roles: ['subscriber'],
      email: 'user@northwind.test',
    });
    expect(await app.state.userByLogin('al')).toMatchObject({ roles: ['contributor'] });
    const support = (await app.state.categories()).find((category) => category.name === 'Support');
    expect(support?.count).toBe(2);
  });

  it('sees a user added through Users > Add New, and forgets it after a reset', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    await page.goto(`${app.origin}/wp-admin/user-new.php`);
    await page.getByLabel('Username (required)').fill('carol');
    await page.getByLabel('Email (required)').fill('carol@northwind.test');
    await page.getByLabel('Role').selectOption('author');
    // WordPress fills the generated password only once zxcvbn has loaded, after the window's load
    // event; a submit before that is refused ("Please enter a password") and stays on the form.
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('#pass1')?.value !== '',
      undefined,
      {
        timeout: 30_000,
      },
    );
    // WordPress answers the form's POST with a redirect to users.php, or the form again with
    // an error notice: when the page stays, the test says which, and what the form showed.
    const posted = page.waitForResponse(
      (response) => response.request().method() === 'POST' && /user-new\.php/.test(response.url()),
      { timeout: 60_000 },
    );
    await page.getByRole('button', { name: 'Add New User' }).click();
    const response = await posted.catch(async () => {
      throw new Error(`The click sent no form (still at ${page.url()}): ${await notices(page)}`);
    });
    await page.waitForURL(/users\.php/, { timeout: 60_000 }).catch(async () => {
      throw new Error(
        `The form's POST answered ${response.status()} and the page stayed at ${page.url()}: ${await notices(page)}`,
      );
    });
    expect(await app.state.userByLogin('carol')).toMatchObject({
      roles: ['author'],
      email: 'carol@northwind.test',
    });
    await page.close();

    await app.reset();
    expect(await app.state.userByLogin('carol')).toBeUndefined();
    expect(await app.state.userByLogin('jdoe')).toBeDefined();
  });
});
