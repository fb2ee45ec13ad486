import type { Frame, Locator, Page } from 'playwright-core';
import type { UiTimings } from './defaults.js';
import { describeLocator, resolveTarget, type Target } from './locator.js';
import type { PageTracker } from './page-tracker.js';
import { pageFingerprint, waitForSettle } from './settle.js';
import type { SignInField, SignInFieldEntry, SignInRecipe, SignInValue } from './sign-in-recipe.js';

export {
  literalPasswordsOf,
  loadSignInRecipe,
  parseSignInRecipe,
  passwordFormSignIn,
  type SignInField,
  type SignInFieldEntry,
  type SignInRecipe,
  type SignInRecipeInput,
  SignInRecipeSchema,
  type SignInValue,
  secretsOf,
} from './sign-in-recipe.js';

/**
 * A password field a person signs in with: shown, and not one that sets a new password
 * (an "Add user" or "Change password" form marks those `autocomplete="new-password"`).
 */
const SIGN_IN_PASSWORD = 'input[type=password]:not([autocomplete="new-password"]):visible';

/**
 * Shown sign-in password fields of a frame that stand alone in their form: a form with two
 * of them (phpMyAdmin's "Change password": Enter, Re-type) sets a password, it signs nobody in.
 */
function signInPasswords(frame: Frame): Promise<number> {
  return frame
    .locator(SIGN_IN_PASSWORD)
    .evaluateAll(
      (fields) =>
        fields.filter((field) => {
          const form = (field as HTMLInputElement).form;
          const shown = Array.from(form?.querySelectorAll('input[type=password]') ?? []).filter(
            (other) => other.getClientRects().length > 0,
          );
          return shown.length <= 1;
        }).length,
    )
    .catch(() => 0);
}

/** The first frame of the page that shows a sign-in password field, if any. */
export async function passwordFrame(page: Page): Promise<Frame | undefined> {
  for (const frame of page.frames()) if ((await signInPasswords(frame)) > 0) return frame;
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

/** The first field the recipe names by a target: its form is the recipe's own page. */
function firstNamedField(recipe: SignInRecipe | undefined): Target | undefined {
  for (const entry of recipe?.fields ?? []) if ('target' in entry) return entry.target;
  return undefined;
}

/**
 * Whether the page shows the recipe's sign-in form. A recipe that names its fields is
 * detected by them (its first named field is shown, on its page); the short form, which
 * names none, by a sign-in password field on its page. Any other password field (an "Add
 * user" form) is not a sign-in.
 */
export async function showsSignIn(page: Page, recipe?: SignInRecipe): Promise<boolean> {
  if (!onSignInPage(page, recipe)) return false;
  const named = firstNamedField(recipe);
  if (!named) return (await passwordFrame(page)) !== undefined;
  try {
    return await (await resolveTarget(page, named)).first().isVisible();
  } catch {
    return false;
  }
}

/** What signing in needs of the page's harness. */
export interface SignInContext {
  page: Page;
  tracker: PageTracker;
  timings: UiTimings;
  /** The value to type into the field; a password's or secret's value is masked before it is typed. */
  valueOf(value: SignInValue, field: SignInField): string;
}

function foundField(frame: Frame, field: SignInField): Locator {
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

/** The one element a recipe's target names, or SignInFailed saying why not. */
async function only(page: Page, target: Target, what: string): Promise<Locator> {
  const locator = await resolveTarget(page, target);
  const count = await locator.count().catch(() => 0);
  if (count !== 1) {
    throw new SignInFailed(
      `the recipe's ${what} (${describeLocator(target.locator)}) matches ${count === 0 ? 'nothing' : `${count} elements`} on the sign-in page`,
    );
  }
  return locator;
}

/** Types (or chooses) one field's value; returns the field, the last one Enter submits from. */
async function enter(context: SignInContext, frame: Frame | undefined, entry: SignInFieldEntry) {
  const timeout = context.timings.signInFieldTimeoutMs;
  if ('field' in entry) {
    if (!frame) throw new SignInFailed('no sign-in password field is showing');
    const locator = foundField(frame, entry.field);
    // A password-only form has no user field; the recipe's other fields still go in.
    if (entry.field === 'user' && (await locator.count()) === 0) return undefined;
    await locator.fill(context.valueOf(entry.value, entry.field), { timeout });
    return locator;
  }
  const locator = await only(context.page, entry.target, 'field');
  const password = await locator
    .evaluate((element) => (element as HTMLInputElement).type === 'password')
    .catch(() => false);
  const text = context.valueOf(entry.value, password ? 'password' : 'user');
  if (entry.op === 'select') await locator.selectOption({ label: text }, { timeout });
  else await locator.fill(text, { timeout });
  return locator;
}

/** Whether the recipe's success shows on the settled page. */
async function succeeded(page: Page, recipe: SignInRecipe, timings: UiTimings): Promise<boolean> {
  const { success } = recipe;
  if (success === 'form_gone') return !(await showsSignIn(page, recipe));
  if ('path' in success) return new URL(page.url()).pathname.startsWith(success.path);
  const shown = (await resolveTarget(page, success.visible)).first();
  return shown
    .waitFor({ state: 'visible', timeout: timings.actionTimeoutMs })
    .then(() => true)
    .catch(() => false);
}

/**
 * Signs the page in by the recipe. Returns false when the page shows no sign-in form
 * (nothing to do); throws SignInFailed when a field cannot be found or success does not
 * show, so the caller can say why.
 */
export async function signInWith(recipe: SignInRecipe, context: SignInContext): Promise<boolean> {
  const { page, tracker, timings } = context;
  if (!(await showsSignIn(page, recipe))) return false;
  const frame = await passwordFrame(page);
  const before = await pageFingerprint(page);
  let last: Locator | undefined;
  for (const entry of recipe.fields) last = (await enter(context, frame, entry)) ?? last;
  const startedAt = Date.now();
  // The key or click only: the navigation it starts is waited for below, within the action's
  // deadline (a sign-in that hashes the password on a busy server answers in seconds, not in the field's).
  if (recipe.submit === 'press_enter')
    await last?.press('Enter', { timeout: timings.signInFieldTimeoutMs, noWaitAfter: true });
  else
    await (await only(page, recipe.submit.click, 'submit button')).click({
      timeout: timings.signInFieldTimeoutMs,
      noWaitAfter: true,
    });
  await waitForSettle(before, {
    deadline: Date.now() + timings.actionTimeoutMs,
    quietMs: timings.quietMs,
    read: () => pageFingerprint(page),
    interrupted: () => tracker.dialog !== undefined,
    activity: tracker,
    startedAt,
  });
  if (!(await succeeded(page, recipe, timings))) throw new SignInFailed();
  return true;
}

/** The sign-in did not succeed: the form is still showing, or a field of the recipe is not there. */
export class SignInFailed extends Error {
  override readonly name = 'SignInFailed';
  constructor(readonly reason = 'the sign-in form is still showing after signing in') {
    super(`Signing in failed: ${reason}.`);
  }
}
