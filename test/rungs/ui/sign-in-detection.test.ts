import { describe, expect } from 'vitest';
import { passwordFormSignIn, showsSignIn } from '../../../src/rungs/ui/sign-in.js';
import { itWithPage as it } from '../../support/browser-page.js';

const LOGIN =
  '<form><label>User <input name="u"></label><label>Password <input type="password"></label></form>';
// WordPress's Add New User: the password in clear, a hidden confirmation, both setting a new password.
const ADD_USER =
  '<form><label>Username <input name="login"></label><label>Password <input type="text" value="x7!k" autocomplete="new-password"></label>' +
  '<input type="password" autocomplete="new-password" style="display:none"><label>Confirm <input type="password" autocomplete="new-password"></label></form>';

describe('what counts as a sign-in page', () => {
  it('is a shown password field a person signs in with', async ({ page }) => {
    await page.setContent(LOGIN);
    expect(await showsSignIn(page)).toBe(true);
  });

  it('is not a form that sets a new password, nor a hidden password field', async ({ page }) => {
    await page.setContent(ADD_USER);
    expect(await showsSignIn(page)).toBe(false);
    await page.setContent('<form><input type="password" style="display:none"></form>');
    expect(await showsSignIn(page)).toBe(false);
    // phpMyAdmin's "Change password": Enter and Re-type, two password boxes in one form.
    await page.setContent(
      '<form>Enter: <input type="password" name="pw"> Re-type: <input type="password" name="pw2"><button>Go</button></form>',
    );
    expect(await showsSignIn(page)).toBe(false);
  });

  it("is only the recipe's sign-in page when the recipe names one", async ({ page }) => {
    await page.route('http://app.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: LOGIN }),
    );
    const recipe = { ...passwordFormSignIn('admin', { literal: 'pw' }), page: '/wp-login.php' };
    await page.goto('http://app.test/wp-login.php?redirect_to=x');
    expect(await showsSignIn(page, recipe)).toBe(true);
    await page.goto('http://app.test/wp-admin/profile.php');
    expect(await showsSignIn(page, recipe)).toBe(false);
    expect(await showsSignIn(page)).toBe(true);
  });
});
