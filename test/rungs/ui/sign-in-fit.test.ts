import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLiftError, type LiftError } from '../../../src/contract/errors.js';
import { Classifier } from '../../../src/replay/classify.js';
import { launchBrowser } from '../../../src/rungs/ui/browser.js';
import { PageHarness } from '../../../src/rungs/ui/harness.js';
import { parsePolicy } from '../../../src/rungs/ui/policy.js';
import {
  parseSignInRecipe,
  passwordFormSignIn,
  type SignInRecipe,
  type SignInRecipeInput,
  showsSignIn,
} from '../../../src/rungs/ui/sign-in.js';
import { ADMINER_LIKE_FORM, type SignInApp, startSignInApp } from '../../support/sign-in-app.js';

const CANARY = 'canary-fit-pw-7Hq2';
let app: SignInApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startSignInApp(CANARY), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const field = (label: string, value: SignInRecipeInput['fields'][number]['value']) => ({
  target: { locator: { by: 'field' as const, label } },
  value,
});

async function withHarness<T>(recipe: SignInRecipe, use: (harness: PageHarness) => Promise<T>): Promise<T> {
  const context: BrowserContext = await browser.newContext();
  try {
    const harness = await PageHarness.open(await context.newPage(), {
      policy: parsePolicy({ origins: [app.origin] }),
      signIn: recipe,
      secret: () => CANARY,
    });
    return await use(harness);
  } finally {
    await context.close();
  }
}

async function failure(run: Promise<unknown>): Promise<LiftError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isLiftError(error)) throw new Error(`expected a LiftError, got ${String(error)}`);
  return error;
}

describe('a sign-in form the recipe does not fit', () => {
  const misfit = parseSignInRecipe({
    fields: [field('User name', { literal: 'admin' }), field('Password', { secret: 'db_password' })],
    submit: { click: { locator: { by: 'role', role: 'button', name: 'Sign in' } } },
  });

  it('is still a sign-in page, and signing in names each field that found nothing and the boxes the form has', async () => {
    await withHarness(misfit, async (harness) => {
      await harness.goto(`${app.origin}/login`);
      expect(await harness.state()).toBe('auth_required');
      app.posted.length = 0;
      const error = await failure(harness.signIn());
      expect(error.code).toBe('AUTH_REQUIRED');
      expect(error.message).toContain(
        'the recipe does not fit the sign-in form at /login: field after "User name" matches nothing; submit button (button "Sign in") matches nothing; the form has ',
      );
      // What the form has, with the target that names each box.
      expect(error.message).toContain('textbox "Username": {"locator":{"by":"field","label":"Username"}}');
      expect(error.message).toContain('combobox "System": {"locator":{"by":"field","label":"System"}}');
      expect(error.message).toContain(
        'textbox "Password" (password): {"locator":{"by":"field","label":"Password"}}',
      );
      expect(error.message).toContain(
        'button "Login": {"locator":{"by":"role","role":"button","name":"Login"}}',
      );
      // The allowed shapes with an example, and nothing was typed or sent.
      expect(error.hint).toContain('FIELD ');
      expect(error.hint).toContain('Example: {"fields"');
      expect(app.posted).toEqual([]);
      expect(await harness.page.locator('input[name=user]').inputValue()).toBe('');
    });
  });

  it("stops at the recipe's open page when a browser never signed in finds no form there", async () => {
    const wrongOpen = parseSignInRecipe({
      ...misfit,
      fields: [field('Username', { literal: 'admin' })],
      open: '/',
    });
    await withHarness(wrongOpen, async (harness) => {
      const error = await failure(harness.signInAtOpen(app.origin));
      expect(error.code).toBe('AUTH_REQUIRED');
      expect(error.message).toBe(
        'No sign-in form at /: a browser that was never signed in found no password box there to sign in with.',
      );
      expect(error.hint).toContain('docs/sign-in-recipe.md');
    });
  });

  it("stops at a start page whose form lives elsewhere than the recipe's page", async () => {
    const wrongPage = parseSignInRecipe({
      fields: [field('Username', { literal: 'admin' }), field('Password', { secret: 'db_password' })],
      page: '/signin',
    });
    await withHarness(wrongPage, async (harness) => {
      await harness.goto(`${app.origin}/login`);
      expect(await harness.state()).toBe('ready');
      const error = await failure(harness.assertNoStraySignIn());
      expect(error.message).toBe(
        "The start page /login shows a sign-in form, but the recipe's page is /signin: it never signs in here.",
      );
    });
  });
});

describe('a login form with a server and a database field', () => {
  it('is a sign-in page to the UI rung, by a recipe and by the short form, and to replay', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.setContent(`<h1>Login</h1>${ADMINER_LIKE_FORM}`);
      expect(await showsSignIn(page)).toBe(true);
      expect(await showsSignIn(page, passwordFormSignIn('admin', { secret: 'db_password' }))).toBe(true);
      const named = parseSignInRecipe({ fields: [field('Server', { literal: 'db.local' })] });
      expect(await showsSignIn(page, named)).toBe(true);
      const harness = await PageHarness.open(page, { policy: parsePolicy({ origins: [app.origin] }) });
      await harness.goto(`${app.origin}/login`);
      const classified = await new Classifier(page, harness.tracker).classify();
      expect(classified.kind).toBe('auth_expired');
    } finally {
      await context.close();
    }
  });

  it('is signed in by the short form with the user name in the user box, not in the server box before it', async () => {
    await withHarness(passwordFormSignIn('admin', { secret: 'db_password' }), async (harness) => {
      app.posted.length = 0;
      await harness.goto(`${app.origin}/login?back=/servers`);
      await harness.signIn();
      expect(app.posted).toEqual([
        expect.objectContaining({ driver: 'server', server: '', user: 'admin', pass: CANARY, db: '' }),
      ]);
      expect(new URL(harness.page.url()).pathname).toBe('/servers');
      expect(await harness.state()).toBe('ready');
    });
  });

  it('is signed in by a recipe that names the server, the database and a select', async () => {
    const strict = await startSignInApp(CANARY, { strictServer: true });
    const context = await browser.newContext();
    try {
      const recipe = parseSignInRecipe({
        fields: [
          { ...field('System', { literal: 'PostgreSQL' }), op: 'select' },
          field('Server', { literal: 'db.local' }),
          field('Username', { literal: 'admin' }),
          field('Password', { secret: 'db_password' }),
          field('Database', { input: 'database' }),
        ],
        submit: { click: { locator: { by: 'role', role: 'button', name: 'Login' } } },
        success: { visible: { locator: { by: 'role', role: 'link', name: 'Logout' } } },
      });
      const harness = await PageHarness.open(await context.newPage(), {
        policy: parsePolicy({ origins: [strict.origin] }),
        inputs: { database: 'shop' },
        signIn: recipe,
        secret: () => CANARY,
      });
      await harness.goto(`${strict.origin}/login?back=/servers`);
      await harness.signIn();
      expect(strict.posted).toEqual([
        expect.objectContaining({ driver: 'pgsql', server: 'db.local', user: 'admin', db: 'shop' }),
      ]);
    } finally {
      await context.close();
      await strict.close();
    }
  });
});
