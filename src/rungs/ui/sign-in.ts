import type { Frame, Locator, Page } from 'playwright-core';
import type { UiTimings } from './defaults.js';
import type { PageTracker } from './page-tracker.js';
import { pageFingerprint, waitForSettle } from './settle.js';

/** Where a value typed while signing in comes from. Nothing typed at sign-in comes from a model. */
export type SignInValue =
  /** Typed as written (a user name). */
  | { literal: string }
  /** Read from the secret store by name at the moment it is typed. */
  | { secret: string }
  /** A value bound to the session's inputs (a tenant, a branch). */
  | { input: string };

/** The fields of the sign-in form Lift finds itself: the form that holds a password field. */
export type SignInField = 'user' | 'password';

/**
 * How Lift signs a session in, as data: which field gets which value, how the form is sent
 * and how success shows. Today's recipe (passwordFormSignIn) types a user name and a stored
 * password into the page's password form and presses Enter; a recorded recipe (another
 * route to the form, more fields, a button to click, a page that proves success) adds
 * variants to these unions, and every page user (UI tools, discovery, replay) gets it.
 */
export interface SignInRecipe {
  fields: Array<{ field: SignInField; value: SignInValue }>;
  /** Enter in the last field filled: implicit submission clicks the form's default button. */
  submit: 'press_enter';
  /** The sign-in form is gone from every frame once the page settled. */
  success: 'form_gone';
  /**
   * The path the sign-in form lives at (`/wp-login.php`, `/index.php/Special:UserLogin`):
   * a password field on any other page (an "Add user" form) is not a sign-in. Without it,
   * any page showing a sign-in password field is taken for one.
   */
  page?: string;
  /**
   * Where the form is reached (a "Log in" link's page): the session signs in there before
   * its start page, for applications that show their pages to anyone and ask no sign-in.
   */
  open?: string;
}

/** The `--user USER --secret NAME` sign-in: the user name as typed, the password from the store. */
export function passwordFormSignIn(user: string, password: SignInValue): SignInRecipe {
  return {
    fields: [
      { field: 'user', value: { literal: user } },
      { field: 'password', value: password },
    ],
    submit: 'press_enter',
    success: 'form_gone',
  };
}

/** The secret names a recipe reads (to mask their values before anything is typed). */
export function secretsOf(recipe: SignInRecipe): string[] {
  return recipe.fields.flatMap(({ value }) => ('secret' in value ? [value.secret] : []));
}

/** Values written into the recipe that go into password fields: masked like secrets. */
export function literalPasswordsOf(recipe: SignInRecipe): string[] {
  return recipe.fields.flatMap(({ field, value }) =>
    field === 'password' && 'literal' in value ? [value.literal] : [],
  );
}

/**
 * A password field a person signs in with: shown, and not one that sets a new password
 * (an "Add user" or "Change password" form marks those `autocomplete="new-password"`).
 */
const SIGN_IN_PASSWORD = 'input[type=password]:not([autocomplete="new-password"]):visible';

/** The first frame of the page that shows a sign-in password field, if any. */
export async function passwordFrame(page: Page): Promise<Frame | undefined> {
  for (const frame of page.frames()) {
    const count = await frame
      .locator(SIGN_IN_PASSWORD)
      .count()
      .catch(() => 0);
    if (count > 0) return frame;
  }
  return undefined;
}

/** Whether the page is the recipe's sign-in page (any page, for a recipe that names none). */
export function onSignInPage(page: Page, recipe: SignInRecipe | undefined): boolean {
  if (!recipe?.page) return true;
  try {
    const here = new URL(page.url());
    return `${here.pathname}${here.search}`.startsWith(recipe.page);
  } catch {
    return false;
  }
}

/** Whether any frame of the page shows a sign-in form (on the recipe's sign-in page, when it names one). */
export async function showsSignIn(page: Page, recipe?: SignInRecipe): Promise<boolean> {
  return onSignInPage(page, recipe) && (await passwordFrame(page)) !== undefined;
}

/** What signing in needs of the page's harness. */
export interface SignInContext {
  page: Page;
  tracker: PageTracker;
  timings: UiTimings;
  /** The value to type into the field; a password's or secret's value is masked before it is typed. */
  valueOf(value: SignInValue, field: SignInField): string;
}

function fieldLocator(frame: Frame, field: SignInField): Locator {
  const password = frame.locator(SIGN_IN_PASSWORD);
  if (field === 'password') return password.first();
  return frame
    .locator('form')
    .filter({ has: password })
    .first()
    .locator(
      'input:not([type=password]):not([type=hidden]):not([type=submit]):not([type=button]):not([type=checkbox])',
    )
    .first();
}

/**
 * Signs the page in by the recipe. Returns false when the page shows no sign-in form (nothing
 * to do); throws when the form is still there afterwards, so the caller can say why.
 */
export async function signInWith(recipe: SignInRecipe, context: SignInContext): Promise<boolean> {
  const { page, tracker, timings } = context;
  const frame = onSignInPage(page, recipe) ? await passwordFrame(page) : undefined;
  if (!frame) return false;
  const before = await pageFingerprint(page);
  let last: Locator | undefined;
  for (const { field, value } of recipe.fields) {
    const locator = fieldLocator(frame, field);
    // A password-only form has no user field; the recipe's other fields still go in.
    if (field === 'user' && (await locator.count()) === 0) continue;
    await locator.fill(context.valueOf(value, field), { timeout: timings.signInFieldTimeoutMs });
    last = locator;
  }
  const startedAt = Date.now();
  // The key only: the navigation it starts is waited for below, within the action's deadline
  // (a sign-in that hashes the password on a busy server answers in seconds, not in the field's).
  await last?.press('Enter', { timeout: timings.signInFieldTimeoutMs, noWaitAfter: true });
  await waitForSettle(before, {
    deadline: Date.now() + timings.actionTimeoutMs,
    quietMs: timings.quietMs,
    read: () => pageFingerprint(page),
    interrupted: () => tracker.dialog !== undefined,
    activity: tracker,
    startedAt,
  });
  if (await showsSignIn(page, recipe)) throw new SignInFailed();
  return true;
}

/** The sign-in form is still showing after the recipe ran. */
export class SignInFailed extends Error {
  override readonly name = 'SignInFailed';
  constructor() {
    super('The sign-in form is still showing after signing in.');
  }
}
