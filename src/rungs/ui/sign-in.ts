import type { Page } from 'playwright-core';

export interface Credential {
  user: string;
  password: string;
}

/** Whether any frame of the page shows a password field (a sign-in form). */
export async function showsSignIn(page: Page): Promise<boolean> {
  for (const frame of page.frames()) {
    if (
      (await frame
        .locator('input[type=password]')
        .count()
        .catch(() => 0)) > 0
    )
      return true;
  }
  return false;
}

/**
 * The session's own sign-in: Lift types the stored credential into the page's sign-in form.
 * The credential comes from the secret store; no model ever sees or supplies it.
 */
export async function signInWithForm(page: Page, credential: Credential): Promise<void> {
  const password = page.locator('input[type=password]').first();
  const form = page.locator('form').filter({ has: password }).first();
  await form.locator('input:not([type=password]):not([type=hidden])').first().fill(credential.user);
  await password.fill(credential.password);
  await Promise.all([
    page.waitForLoadState('load'),
    form.locator('button[type=submit], button:not([type]), input[type=submit]').first().click(),
  ]);
  await page.waitForURL((current) => !/login|sign-?in/i.test(current.pathname), { timeout: 10_000 });
}
