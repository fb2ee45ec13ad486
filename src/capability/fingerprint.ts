import type { Frame, Page } from 'playwright-core';
import { LiftError } from '../contract/errors.js';
import { answerWithin, pause } from '../rungs/ui/settle.js';
import { sha256 } from '../runtime/canonical.js';

const FRAME_TIMEOUT_MS = 2_000;
/** How long the top document may stay unreadable before the fingerprint gives up. */
const MAIN_FRAME_BOUND_MS = 20_000;

/**
 * Runs in each frame: the role + name pairs of the structural and actionable elements a
 * person sees (headings, buttons, fields, tabs, navigation, forms, iframes, dialogs). Data
 * (cells, rows and the controls inside them, text, links, numbers and counts in names, script
 * text) is left out, so other records and another number of them give the same skeleton. Self-contained: a page function cannot call helpers defined outside it.
 */
export function readSkeleton(): string[] {
  const ROLES: Array<[string, string]> = [
    ['heading', 'h1, h2, h3, h4, h5, h6, [role=heading]'],
    ['button', 'button, input[type=submit], input[type=button], input[type=reset], [role=button]'],
    [
      'textbox',
      'textarea, input:not([type]), input[type=text], input[type=email], input[type=tel], input[type=url], input[type=password], input[type=number], input[type=date], [role=textbox]',
    ],
    ['searchbox', 'input[type=search], [role=searchbox]'],
    ['combobox', 'select, [role=combobox]'],
    ['checkbox', 'input[type=checkbox], [role=checkbox]'],
    ['radio', 'input[type=radio], [role=radio]'],
    ['tab', '[role=tab]'],
    ['navigation', 'nav, [role=navigation]'],
    ['form', 'form, [role=form]'],
    ['iframe', 'iframe'],
    ['dialog', 'dialog[open], [role=dialog], [role=alertdialog]'],
  ];
  const entries: string[] = [];
  for (const [role, selector] of ROLES) {
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      if (element.closest('[aria-hidden=true], [hidden]')) continue;
      // A data row's controls are data: their number and names follow the records shown.
      const row = element.closest('tr');
      if (row && !row.closest('thead') && row.querySelector('td')) continue;
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      const labelledBy = (element.getAttribute('aria-labelledby') ?? '')
        .split(/\s+/)
        .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
        .join(' ');
      const field = element as HTMLInputElement;
      const labels = 'labels' in field && field.labels ? Array.from(field.labels) : [];
      const own =
        role === 'iframe'
          ? element.getAttribute('title') || element.getAttribute('name') || ''
          : element instanceof HTMLInputElement && /^(submit|button|reset)$/.test(element.type)
            ? element.value
            : /^(heading|button|tab|checkbox|radio)$/.test(role)
              ? // Rendered text: a script or style inside an element is no part of its name.
                // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
                (element.innerText ?? '')
              : '';
      const name = (
        element.getAttribute('aria-label') ||
        labelledBy.trim() ||
        labels.map((label) => label.textContent ?? '').join(' ') ||
        own ||
        element.getAttribute('title') ||
        element.getAttribute('placeholder') ||
        ''
      )
        .replace(/\s+/g, ' ')
        .trim()
        // Counts and numbers in names ("Inbox (3)", "Page 2 of 5") are data, not structure.
        .replace(/\d+([.,:]\d+)*/g, '#')
        .slice(0, 120);
      entries.push(name ? `${role} "${name}"` : role);
    }
  }
  return entries;
}

function frameSkeleton(frame: Frame): Promise<string[] | undefined> {
  return answerWithin(frame.evaluate(readSkeleton), FRAME_TIMEOUT_MS);
}

/** A page's skeleton, and whether every frame answered for it (a busy frame's part is missing). */
export interface PageFingerprint {
  fingerprint: string;
  skeleton: string[];
  complete: boolean;
}

/**
 * The skeleton of a page: the sorted, de-duplicated role + name pairs across all its frames.
 * Order-free, so a layout that moves things around (or reverses tables) has the same
 * skeleton; a renamed button or a missing field does not. One evaluation per frame, in
 * parallel, with no selector engine: cheap enough to check before every replay.
 */
async function pageSkeleton(page: Page): Promise<{ skeleton: string[]; complete: boolean }> {
  const started = Date.now();
  // A document still arriving (a sign-in's redirect just committed) has no skeleton yet.
  await page.waitForLoadState('load', { timeout: MAIN_FRAME_BOUND_MS }).catch(() => undefined);
  for (let attempt = 0; ; attempt++) {
    const frames = page.frames();
    const read = await Promise.all(frames.map(frameSkeleton));
    const complete = read.every((entries) => entries !== undefined);
    // A frame that navigated or was replaced while being read is read again, once.
    const main = read[frames.indexOf(page.mainFrame())] !== undefined;
    if (complete || (attempt > 0 && main)) return { skeleton: skeletonOf(read), complete };
    // Without the top document there is no skeleton: a busy page (or a loaded machine) is read
    // again rather than fingerprinted as nothing, which no later page would ever match.
    if (!main && Date.now() - started > MAIN_FRAME_BOUND_MS) {
      throw new LiftError(
        'TIMEOUT',
        `The page did not answer for its structure within ${MAIN_FRAME_BOUND_MS} ms.`,
        {
          hint: 'The page is busy or still loading. Try again when it has settled.',
          outcome: 'not_started',
        },
      );
    }
    await page.waitForLoadState('load', { timeout: FRAME_TIMEOUT_MS }).catch(() => undefined);
  }
}

/** The page's skeleton from its frames' parts: sorted and de-duplicated, so order-free. */
export function skeletonOf(frames: Array<string[] | undefined>): string[] {
  return [...new Set(frames.flatMap((entries) => entries ?? []))].sort();
}

export function fingerprintOf(skeleton: string[]): string {
  return sha256(skeleton.join('\n'));
}

/**
 * What identifies one document as an error page: its frame's skeleton, hashed as a page's is.
 * A document is compared alone, so an error page in a frame is known in any shell around it.
 * Undefined for a skeleton that names nothing (a bare "Internal Server Error" text, a blank
 * frame): every blank document would share it.
 */
export function errorPageOf(frameSkeleton: string[]): string | undefined {
  if (!frameSkeleton.some((entry) => entry.includes(' "'))) return undefined;
  return fingerprintOf(skeletonOf([frameSkeleton]));
}

/** The error-page hash of a frame's document now; undefined when the frame does not answer. */
export async function frameErrorPage(frame: Frame): Promise<string | undefined> {
  const skeleton = await frameSkeleton(frame);
  return skeleton && errorPageOf(skeleton);
}

export async function pageFingerprint(page: Page): Promise<PageFingerprint> {
  const { skeleton, complete } = await pageSkeleton(page);
  return { fingerprint: fingerprintOf(skeleton), skeleton, complete };
}

/** How often a start page is read while it may still be building, and how long it must hold still. */
const SETTLE_READ_MS = 150;
const SETTLE_QUIET_MS = 600;
/**
 * How often a replay's start page is read while it waits for the fingerprint it expects: a
 * read costs 3-10 ms even on phpMyAdmin's page, which matches 200-300 ms after its load
 * event, and reading every 150 ms answered up to 150 ms after the page was there.
 */
const EXPECTED_READ_MS = 25;
/**
 * How long a page must hold still before a replay gives up on the fingerprint it expects: a
 * starved machine can run a page's late scripts seconds after a still moment, and a start page
 * called different then fails a replay that would have run. Only a page that truly differs
 * waits this long, on its way to SURFACE_CHANGED.
 */
const EXPECTED_QUIET_MS = 2_000;
/** A read of the skeleton slower than this says the page or the machine is starved (a read takes 3-10 ms). */
const SLOW_READ_MS = 1_500;

/**
 * The page's fingerprint once its own scripts have built it: read until it has not changed
 * for SETTLE_QUIET_MS, within `timeoutMs`. phpMyAdmin adds its navigation, console and list
 * buttons after the load event, so a page read at load and one read a moment later differ.
 * With `expected` (a replay's start page), a read that shows it ends the wait: the page has
 * become the one discovery saw built, and only a page that does not needs the quiet period.
 * `settled` says whether the answer is the page at rest: every frame answered, quickly, and
 * nothing changed for the quiet period. A page still building when the time ran out, or one
 * a loaded machine could not read in full, is no evidence of a different screen. `first` is
 * the fingerprint of the first read, when it was read in full: called at the load event, the
 * page as it is then.
 */
export async function settledFingerprint(
  page: Page,
  timeoutMs = 5_000,
  expected?: string,
): Promise<PageFingerprint & { settled: boolean; first: string | undefined }> {
  const deadline = Date.now() + timeoutMs;
  const quietMs = expected === undefined ? SETTLE_QUIET_MS : EXPECTED_QUIET_MS;
  const read = async () => {
    const started = Date.now();
    const next = await pageFingerprint(page);
    // A read that missed a frame or took seconds may differ only for that: no quiet period counts from it.
    return { next, whole: next.complete && Date.now() - started <= SLOW_READ_MS };
  };
  const { next: firstRead, whole: firstWhole } = await read();
  let last = firstRead;
  let since = Date.now();
  const still = () => Date.now() - since >= quietMs;
  while (Date.now() < deadline && !still() && last.fingerprint !== expected) {
    await pause(expected === undefined ? SETTLE_READ_MS : EXPECTED_READ_MS);
    const { next, whole } = await read();
    if (next.fingerprint !== last.fingerprint || !whole) since = Date.now();
    last = next;
  }
  const first = firstWhole ? firstRead.fingerprint : undefined;
  return { ...last, settled: last.fingerprint === expected || still(), first };
}
