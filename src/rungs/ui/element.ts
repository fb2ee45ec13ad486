import type { ElementHandle, Locator, Page } from 'playwright-core';
import { resolveTarget, type Target } from './locator.js';
import { centreOnScreen } from './on-screen.js';
import { PageTracker } from './page-tracker.js';
import type { ElementRecord } from './render.js';
import type { ElementFacts } from './safety.js';
import { parseAriaSnapshot } from './snapshot.js';

/** What is known about an element right now, read from the live page. */
export interface LiveElement extends ElementFacts {
  locator: Locator;
  /** The semantic target (raw values) that names this element. */
  target: Target;
  editable: boolean;
  disabled: boolean;
  /** For a field: the accessible name of the button that Enter would submit its form with. */
  submitName: string | undefined;
  /** The locator is an aria ref: refresh the refs (refreshRefs) before using it. */
  refBased?: true;
  /** No semantic target names this element alone on the page: `target` would find another too. */
  notUnique?: true;
}

export type Resolution = { ok: true; element: LiveElement } | { ok: false; reason: string; count: number };

interface DomFacts {
  password: boolean;
  editable: boolean;
  disabled: boolean;
  submitName: string | undefined;
}

async function domFacts(locator: Locator): Promise<DomFacts> {
  return locator.evaluate((element) => {
    const input = element as HTMLInputElement;
    const tag = element.tagName;
    const editable =
      tag === 'TEXTAREA' ||
      tag === 'SELECT' ||
      (tag === 'INPUT' &&
        !['button', 'submit', 'reset', 'image', 'checkbox', 'radio'].includes(input.type)) ||
      (element as HTMLElement).isContentEditable;
    const disabled = Boolean(input.disabled) || element.getAttribute('aria-disabled') === 'true';
    let submitName: string | undefined;
    const form = input.form ?? element.closest('form');
    if (form && tag === 'INPUT') {
      const submit = form.querySelector('button[type=submit], button:not([type]), input[type=submit]') as
        | HTMLButtonElement
        | HTMLInputElement
        | null;
      if (submit) {
        submitName = (
          submit.getAttribute('aria-label') ||
          (submit instanceof HTMLInputElement ? submit.value : submit.textContent) ||
          ''
        )
          .replace(/\s+/g, ' ')
          .trim();
      }
    }
    return { password: tag === 'INPUT' && input.type === 'password', editable, disabled, submitName };
  });
}

/** Role and accessible name of one element, from its own aria snapshot. */
/**
 * How long reading an element's role and name may take: a semantic target is resolved
 * afresh for it, and a cell target on a large page (phpMyAdmin's Insert form, ten selects
 * of 120 options) takes seconds under load; the action's own deadline bounds it.
 */
const LOOKUP_MS = 2_000;

async function roleAndName(locator: Locator, timeoutMs = LOOKUP_MS): Promise<{ role: string; name: string }> {
  const snapshot = await locator.ariaSnapshot({ timeout: timeoutMs });
  const first = parseAriaSnapshot(snapshot).children[0];
  return { role: first?.role ?? '', name: first?.name ?? '' };
}

async function live(
  locator: Locator,
  target: Target,
  known?: { role: string; name: string },
  timeoutMs = LOOKUP_MS,
): Promise<LiveElement> {
  // Role and name first: an element's own aria snapshot resets the page's aria refs, so it
  // must not run between resolving a ref and using it.
  const { role, name } = known ?? (await roleAndName(locator, timeoutMs));
  return { locator, target, role, name, ...(await domFacts(locator)) };
}

/**
 * Finds the one element an action names. A ref is exact while the page has not changed:
 * when the recorded semantic target resolves to that very element it is used (it survives
 * re-renders); otherwise the ref itself is. A stale ref falls back to the semantic target.
 * A semantic target must match exactly one element. `timeoutMs` bounds each look at the
 * page (the action's remaining time, at least LOOKUP_MS).
 */
export async function resolveElement(
  page: Page,
  target: { ref: string; record: ElementRecord } | { target: Target },
  timeoutMs = LOOKUP_MS,
): Promise<Resolution> {
  const bound = Math.max(LOOKUP_MS, timeoutMs);
  if ('target' in target) return resolveSemantic(page, target.target, bound);
  // Looking up an aria ref that names nothing would only wait out its timeout.
  if (target.record.targetOnly) return resolveSemantic(page, target.record.target, bound);
  const byRef = page.locator(`aria-ref=${target.record.ariaRef}`);
  const handle = await byRef.elementHandle({ timeout: 500 }).catch(() => null);
  if (!handle) return resolveSemantic(page, target.record.target, bound);
  try {
    const record = target.record.nameFromContent
      ? await withOwnName(byRef, target.record, bound)
      : target.record;
    const known = { role: record.role, name: record.name };
    const unique = await uniqueTarget(page, record.target, handle);
    if (unique) return { ok: true, element: await live(await resolveTarget(page, unique), unique, known) };
    // No target names this element alone: act on the ref, refreshed right before each use;
    // the compiler refuses to store a target that is not unique.
    await refreshRefs(page, bound);
    return {
      ok: true,
      element: { ...(await live(byRef, record.target, known)), refBased: true, notUnique: true },
    };
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}

/** Whether the target resolves to exactly this element. */
async function namesOnly(page: Page, target: Target, handle: ElementHandle): Promise<boolean> {
  const locator = await resolveTarget(page, target);
  return (
    (await locator.count().catch(() => 0)) === 1 &&
    (await locator.evaluate((element, other) => element === other, handle).catch(() => false))
  );
}

/**
 * A target that names this element and no other on the live page: the observed one, or
 * else the same with the element's position among its matches (`nth`), read now.
 */
export async function uniqueTarget(
  page: Page,
  target: Target,
  handle: ElementHandle,
): Promise<Target | undefined> {
  if (await namesOnly(page, target, handle)) return target;
  const { nth: _nth, ...every } = target;
  const index = await (await resolveTarget(page, every))
    .evaluateAll((elements: Element[], other) => elements.indexOf(other as Element), handle)
    .catch(() => -1);
  if (index < 0) return undefined;
  const counted = { ...every, nth: index + 1 };
  return (await namesOnly(page, counted, handle)) ? counted : undefined;
}

/**
 * The record with the element's own accessible name in place of the one rebuilt from its
 * content, so that the target stored and replayed is the name the page computes.
 */
async function withOwnName(byRef: Locator, record: ElementRecord, timeoutMs: number): Promise<ElementRecord> {
  const own = await roleAndName(byRef, timeoutMs).catch(() => undefined);
  if (!own?.name || own.name === record.name) return record;
  const locator = record.target.locator;
  let target = record.target;
  if (locator.by === 'role' && locator.name === record.name)
    target = { ...target, locator: { ...locator, name: own.name } };
  // A control named in its table cell: the same name, in the cell target's element.
  if (locator.by === 'cell' && locator.element?.name === record.name)
    target = { ...target, locator: { ...locator, element: { ...locator.element, name: own.name } } };
  return { ...record, name: own.name, target };
}

/** Takes an AI snapshot so that `aria-ref=` locators resolve against the current page. */
export async function refreshRefs(page: Page, timeoutMs = LOOKUP_MS): Promise<void> {
  await page.ariaSnapshot({ mode: 'ai', timeout: Math.max(LOOKUP_MS, timeoutMs) }).catch(() => undefined);
}

async function resolveSemantic(page: Page, target: Target, timeoutMs: number): Promise<Resolution> {
  const locator = await resolveTarget(page, target);
  const lookAgain = async () => {
    await locator
      .first()
      .waitFor({ state: 'attached', timeout: Math.min(timeoutMs, LOOKUP_MS) })
      .catch(() => undefined);
    return locator.count().catch(() => 0);
  };
  let count = await locator.count().catch(() => 0);
  // The step before may have set off a navigation that had not begun when its change
  // settled (a search box's Enter handled by a script): the next page is still coming, so
  // a missing target is looked for again, a moment later, before it is called absent.
  if (count === 0) count = await lookAgain();
  if (count === 0) {
    // That page may take longer than a moment on a slow server or a loaded machine (a search
    // that redirects to the article): while a document is on its way, or has just come, the
    // target is looked for once more on the page that lands.
    if (await PageTracker.of(page).documentArrived(LOOKUP_MS, timeoutMs)) count = await lookAgain();
  }
  if (count !== 1) {
    return {
      ok: false,
      count,
      reason: count === 0 ? 'no element on the page matches it' : `${count} elements match it`,
    };
  }
  return { ok: true, element: await live(locator, target, undefined, timeoutMs) };
}

export type Obstruction = 'hidden' | 'off_screen' | 'covered';

/**
 * Brings the element where a pointer reaches it: scrolled into view, and, when it is still
 * off screen, focused, as a keyboard user would. Controls parked off screen until their row is
 * hovered or focused (WordPress's row actions, at left: -9999em) show themselves on focus.
 */
export async function revealForPointer(locator: Locator): Promise<void> {
  // Most controls are in view already: one look, and the click does the rest.
  if (await centreOnScreen(locator)) return;
  await locator.scrollIntoViewIfNeeded({ timeout: 1_000 }).catch(() => undefined);
  if (await centreOnScreen(locator)) return;
  await locator.focus({ timeout: 1_000 }).catch(() => undefined);
  await locator.scrollIntoViewIfNeeded({ timeout: 1_000 }).catch(() => undefined);
}

/**
 * Why a pointer action would not reach the element, if anything: hidden (no size), off
 * screen (outside the viewport even after scrolling), or covered by another element.
 */
export async function obstruction(
  locator: Locator,
): Promise<{ kind: Obstruction; detail: string } | undefined> {
  await revealForPointer(locator);
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0)
      return { kind: 'hidden' as const, detail: 'the element has no size' };
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const view = element.ownerDocument.defaultView;
    const width = view?.innerWidth ?? 0;
    const height = view?.innerHeight ?? 0;
    if (x < 0 || y < 0 || x > width || y > height) {
      return {
        kind: 'off_screen' as const,
        detail: `its centre (${Math.round(x)}, ${Math.round(y)}) is outside the viewport`,
      };
    }
    const hit = element.ownerDocument.elementFromPoint(x, y);
    if (!hit || hit === element || element.contains(hit)) return undefined;
    if (hit instanceof HTMLLabelElement && hit.control === element) return undefined;
    const describe = (node: Element): string => {
      const label = node.getAttribute('aria-label') || node.getAttribute('title') || '';
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      const style = view?.getComputedStyle(node);
      const position =
        style && style.position !== 'static' ? ` (${style.position}, z-index ${style.zIndex})` : '';
      return `<${node.tagName.toLowerCase()}>${label ? ` "${label}"` : text ? ` "${text}"` : ''}${position}`;
    };
    return { kind: 'covered' as const, detail: `another element lies on top of it: ${describe(hit)}` };
  });
}
