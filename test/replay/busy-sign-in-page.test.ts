/**
 * A worker host killed and started again has a browser with no session: its first replay lands
 * on the sign-in page. In the load run, with three hosts starving two cores, that page was too
 * busy to answer the start page's first read; a frame that did not answer was taken for fine,
 * and the sign-in page read at rest then answered SURFACE_CHANGED, where it is a sign-in. Here
 * the sign-in page's renderer is kept busy for longer than that read waits.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { type ReplayOptions, replayCapability } from '../../src/replay/engine.js';
import { passwordFormSignIn } from '../../src/rungs/ui/sign-in.js';
import { memberLookupBed, savingsOf } from './helpers.js';

const BUSY_MS = 1_600;
const bed = memberLookupBed();

/** A page of a context with no session, and how often its sign-in page was busy when first read. */
interface BusyPage {
  page: Page;
  busy: () => number;
}

/**
 * A context with no session, whose sign-in page is busy for BUSY_MS (longer than the start
 * page's first read waits for a frame) when a script of the page's own world first looks for
 * elements: the sign-in page has no scripts, so that is the replay's first read.
 */
async function signedOutBusyPage(): Promise<BusyPage> {
  const context = await bed.browser.newContext();
  await context.addInitScript((busyMs: number) => {
    if (location.pathname !== '/login') return;
    const querySelectorAll = Document.prototype.querySelectorAll;
    let first = true;
    Document.prototype.querySelectorAll = function (this: Document, selectors: string) {
      if (first) {
        first = false;
        console.debug('busy sign-in page');
        const end = Date.now() + busyMs;
        while (Date.now() < end);
      }
      return querySelectorAll.call(this, selectors);
    } as typeof querySelectorAll;
  }, BUSY_MS);
  const page = await context.newPage();
  let busy = 0;
  page.on('console', (message) => {
    if (message.text() === 'busy sign-in page') busy++;
  });
  return { page, busy: () => busy };
}

/** The member lookup replayed on a busy sign-in page: its answer (or error), and how often the page was busy. */
async function replayOnBusySignInPage(
  options: Pick<ReplayOptions, 'signIn' | 'secret'>,
): Promise<{ answer: unknown; busy: number }> {
  const { page, busy } = await signedOutBusyPage();
  try {
    const answer = await replayCapability(
      bed.capability,
      { memberId: 'M-1003' },
      { page, evidenceDir: bed.home, effectClass: 'read', ...options },
    ).catch((caught: unknown) => caught);
    return { answer, busy: busy() };
  } finally {
    await page.context().close();
  }
}

it('signs in when the start page is a sign-in page too busy to answer at first, and answers the savings', async () => {
  const { answer, busy } = await replayOnBusySignInPage({
    signIn: passwordFormSignIn(bed.fixture.user, { secret: 'backoffice_password' }),
    secret: () => 'backoffice-demo',
  });
  const savings = savingsOf('M-1003');
  expect(answer).toMatchObject({
    outcome: 'found',
    outputs: { savingsBalance: savings.balance, currency: savings.currency },
    checkpoint: { passed: true },
  });
  // Once on the first sign-in page; the replay signed in from there (and its own sign-in's
  // page, if it loaded one, was busy once more).
  expect(busy).toBeGreaterThanOrEqual(1);
});

it('answers AUTH_REQUIRED, not SURFACE_CHANGED, when it has no sign-in of its own', async () => {
  const { answer, busy } = await replayOnBusySignInPage({});
  expect(answer).toMatchObject({ code: 'AUTH_REQUIRED', outcome: 'not_started' });
  expect(busy).toBe(1);
});
