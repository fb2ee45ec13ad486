import type { Frame, Locator, Page } from 'playwright-core';
import type { UiTimings } from './defaults.js';
import { describeLocator, resolveTarget, type Target } from './locator.js';
import type { PageTracker } from './page-tracker.js';
import { pageFingerprint, waitForSettle } from './settle.js';
import { passwordBox, passwordFrame, signInFormControls, userBox } from './sign-in-form.js';
import type { SignInField, SignInFieldEntry, SignInRecipe, SignInValue } from './sign-in-recipe.js';

export { passwordFrame } from './sign-in-form.js';

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
 * Whether the page shows a sign-in form: on the recipe's page (any page, for a recipe that
 * names none), the recipe's first named field, or a sign-in password field (one that stands
 * alone in its form and sets no new password). A form the recipe does not fit is still a
 * sign-in form: the session must say so (recipeMisfits), not carry on signed out.
 */
export async function showsSignIn(page: Page, recipe?: SignInRecipe): Promise<boolean> {
  if (!onSignInPage(page, recipe)) return false;
  const named = firstNamedField(recipe);
  if (named) {
    const shown = await resolveTarget(page, named)
      .then((found) => found.first().isVisible())
      .catch(() => false);
    if (shown) return true;
  }
  return (await passwordFrame(page)) !== undefined;
}

/** "field after "Tenant" matches nothing": what of a recipe the sign-in form has not got. */
async function misfit(page: Page, target: Target, what: string): Promise<string | undefined> {
  const count = await resolveTarget(page, target)
    .then((found) => found.count())
    .catch(() => 0);
  if (count === 1) return undefined;
  const described = describeLocator(target.locator);
  return `${what === 'field' ? described : `${what} (${described})`} matches ${count === 0 ? 'nothing' : `${count} elements`}`;
}

/**
 * What the recipe names that the sign-in form on the page does not have (a field or button
 * that matches nothing, or several elements), with the controls the form does have and the
 * target of each; undefined when everything it names is there.
 */
export async function recipeMisfits(page: Page, recipe: SignInRecipe): Promise<string | undefined> {
  const missing: string[] = [];
  for (const entry of recipe.fields) {
    if (!('target' in entry)) continue;
    const found = await misfit(page, entry.target, 'field');
    if (found) missing.push(found);
  }
  if (recipe.submit !== 'press_enter') {
    const found = await misfit(page, recipe.submit.click, 'submit button');
    if (found) missing.push(found);
  }
  if (missing.length === 0) return undefined;
  const frame = await passwordFrame(page);
  const controls = frame ? await signInFormControls(page, frame) : [];
  const has = controls.length
    ? `; the form has ${controls.join('; ')}`
    : '; the page shows no sign-in form with a password box';
  return `the recipe does not fit the sign-in form at ${pathOf(page)}: ${missing.join('; ')}${has}`;
}

function pathOf(page: Page): string {
  try {
    const url = new URL(page.url());
    return `${url.pathname}${url.search}`;
  } catch {
    return page.url();
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

/** The box Lift finds itself: the form's password box, or the box its user name goes into. */
async function foundField(frame: Frame, field: SignInField): Promise<Locator | undefined> {
  return field === 'password' ? passwordBox(frame) : userBox(frame);
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
    const locator = await foundField(frame, entry.field);
    // A password-only form has no user field; the recipe's other fields still go in.
    if (!locator || (await locator.count()) === 0) return undefined;
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
  const misfits = await recipeMisfits(page, recipe);
  if (misfits) throw new SignInFailed(misfits, { misfit: true });
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
  /** The recipe names what the form has not got: fix the recipe, not the secret. */
  readonly misfit: boolean;
  constructor(
    readonly reason = 'the sign-in form is still showing after signing in',
    options: { misfit?: boolean } = {},
  ) {
    super(`Signing in failed: ${reason}.`);
    this.misfit = options.misfit ?? false;
  }
}
