import type { Frame, Locator, Page } from 'playwright-core';
import { resolveTarget, type Target } from './locator.js';

/**
 * A password field a person signs in with: shown, and not one that sets a new password
 * (an "Add user" or "Change password" form marks those `autocomplete="new-password"`).
 */
export const SIGN_IN_PASSWORD = 'input[type=password]:not([autocomplete="new-password"]):visible';

/** Boxes a sign-in form may hold besides its password: a user, a server, a database. */
const TEXT_BOXES =
  'input:not([type=password]):not([type=hidden]):not([type=submit]):not([type=button]):not([type=checkbox]):not([type=radio]):not([type=image]):not([type=reset])';

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

/** The form around the frame's sign-in password field. */
function passwordForm(frame: Frame): Locator {
  return frame
    .locator('form')
    .filter({ has: frame.locator(SIGN_IN_PASSWORD) })
    .first();
}

/**
 * Which of a sign-in form's text boxes takes the user name (-1: none). A database admin's
 * form has a server box first (phpMyAdmin's "Server:", Adminer's Server) and a database box
 * after the password: the first box is not the user's. In order: the box the page marks for
 * a user name (`autocomplete="username"` or `email`), one whose name, id or label says user,
 * login or email, then the last box before the password, then the first shown.
 * Self-contained: a page function cannot call helpers defined outside it.
 */
function pickUserBox(boxes: Element[]): number {
  // No named helpers in here: the bundler would wrap them in a __name the page lacks.
  const shown = boxes.map((box) => box.getClientRects().length > 0);
  const password = boxes[0]?.closest('form')?.querySelector('input[type=password]');
  const words = boxes.map((box) =>
    [
      (box as HTMLInputElement).name,
      box.id,
      box.getAttribute('aria-label'),
      box.getAttribute('placeholder'),
      ...Array.from((box as HTMLInputElement).labels ?? []).map((label) => label.textContent ?? ''),
    ]
      .join(' ')
      .toLowerCase(),
  );
  const marked = boxes.findIndex(
    (box, index) => shown[index] && /^(username|email)$/.test(box.getAttribute('autocomplete') ?? ''),
  );
  if (marked >= 0) return marked;
  const named = words.findIndex(
    (text, index) =>
      shown[index] &&
      /user|login|e-?mail|account|benutzer|utilisateur/.test(text) &&
      !/server|host|database/.test(text),
  );
  if (named >= 0) return named;
  let before = -1;
  boxes.forEach((box, index) => {
    if (shown[index] && password && box.compareDocumentPosition(password) & Node.DOCUMENT_POSITION_FOLLOWING)
      before = index;
  });
  return before >= 0 ? before : shown.indexOf(true);
}

/** The box of the frame's sign-in form a user name goes into, if the form has one. */
export async function userBox(frame: Frame): Promise<Locator | undefined> {
  const boxes = passwordForm(frame).locator(TEXT_BOXES);
  const index = await boxes.evaluateAll(pickUserBox).catch(() => -1);
  return index >= 0 ? boxes.nth(index) : undefined;
}

/** The sign-in form's password box. */
export function passwordBox(frame: Frame): Locator {
  return frame.locator(SIGN_IN_PASSWORD).first();
}

/**
 * The text a person reads for a box: its label, its aria-label, its row's header cell, the
 * text right before it, its placeholder. Self-contained: a page function cannot call helpers.
 */
function readableLabel(element: Element): string {
  // No named helpers in here: the bundler would wrap them in a __name the page lacks.
  const box = element as HTMLInputElement;
  const texts = [
    ...Array.from(box.labels ?? []).map((label) => label.textContent),
    box.getAttribute('aria-label'),
    box.closest('tr')?.firstElementChild?.contains(box)
      ? ''
      : box.closest('tr')?.firstElementChild?.textContent,
  ];
  for (let node = box.previousSibling; node; node = node.previousSibling) texts.push(node.textContent);
  texts.push(box.closest('td')?.previousElementSibling?.textContent, box.getAttribute('placeholder'));
  return texts.map((text) => (text ?? '').replace(/\s+/g, ' ').trim()).find((text) => text.length > 0) ?? '';
}

/** The first target that names exactly this control on the page, if any does. */
async function targetOf(page: Page, control: Locator, candidates: Target[]): Promise<Target | undefined> {
  const handle = await control.elementHandle({ timeout: 1_000 }).catch(() => null);
  if (!handle) return undefined;
  try {
    for (const target of candidates) {
      const found = await resolveTarget(page, target).catch(() => undefined);
      if (!found || (await found.count().catch(() => 0)) !== 1) continue;
      if (await found.evaluate((element, other) => element === other, handle).catch(() => false))
        return target;
    }
    return undefined;
  } finally {
    await handle.dispose();
  }
}

/**
 * The boxes, selects and buttons a person sees in the sign-in form, each with a target that
 * names it alone (by the text a person reads for it, else by role and name), for an error
 * that says what a recipe could have named. At most twelve.
 */
export async function signInFormControls(page: Page, frame: Frame): Promise<string[]> {
  const controls = passwordForm(frame).locator(
    `${TEXT_BOXES}:visible, input[type=password]:visible, select:visible, textarea:visible, button:visible, input[type=submit]:visible`,
  );
  const described: string[] = [];
  for (const control of (await controls.all().catch(() => [])).slice(0, 12)) {
    const snapshot = await control.ariaSnapshot({ timeout: 1_000 }).catch(() => '');
    const [, role = 'field', name = ''] = /^- (\w+)(?: "((?:[^"\\]|\\.)*)")?/.exec(snapshot) ?? [];
    const label = await control.evaluate(readableLabel).catch(() => '');
    const password = await control
      .evaluate((element) => (element as HTMLInputElement).type === 'password')
      .catch(() => false);
    const candidates: Target[] = [
      ...(label ? [{ frame: [], locator: { by: 'field' as const, label } }] : []),
      ...(name
        ? [{ frame: [], locator: { by: 'role' as const, role, name: name.replace(/\\"/g, '"') } }]
        : []),
    ];
    // Only the top page's controls are checked; a framed form's are named by what they show.
    const target = frame === page.mainFrame() ? await targetOf(page, control, candidates) : candidates[0];
    const shown = `${role} "${label || name}"${password ? ' (password)' : ''}`;
    described.push(target ? `${shown}: ${JSON.stringify({ locator: target.locator })}` : shown);
  }
  return described;
}
