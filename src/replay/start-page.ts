import type { Capability } from '../capability/capability.js';
import { canChangeState } from '../capability/effects.js';
import type { LiftError } from '../contract/errors.js';
import type { RunEventType } from '../contract/events.js';
import type { PageHarness } from '../rungs/ui/harness.js';
import type { Target } from '../rungs/ui/locator.js';
import type { Classifier, PageState } from './classify.js';
import type { LookAhead } from './look-ahead.js';
import type { ReplayOptions, Settled } from './options.js';
import { fingerprintMismatch } from './start-and-end.js';

/** What opening the start page uses of the replay. */
export interface StartContext {
  capability: Capability;
  harness: PageHarness;
  options: Pick<ReplayOptions, 'page' | 'afterStart' | 'layoutTolerant'>;
  /** Bound of the wait for the start page's scripts. */
  timeoutMs: number;
  classifier: Classifier;
  /** Where the first step's look is sent while the start page is read. */
  lookAhead: LookAhead;
  /** The page as it is now (documents loaded, last action), naming the look sent ahead. */
  pageStamp(): string;
  bind(target: Target): Target;
  /** What the replay does about a page state: go on ('ok'), answer, start over, or throw. */
  answer(state: PageState): Promise<Settled>;
  /** How a failure now leaves the application: untouched, or maybe changed. */
  outcome(): 'unknown' | 'not_started';
  emit(type: RunEventType, data?: Record<string, unknown>): void;
}

/** Loads the start page, classifies it, and checks it is the screen the capability was made on. */
export async function openStart(context: StartContext): Promise<Settled> {
  const { origin, path } = context.capability.preconditions;
  await context.harness.goto(new URL(path, origin).href);
  await context.options.afterStart?.(context.options.page);
  // A first step that acts on the start page waits for its scripts as after any load (WordPress
  // fills its new-user form after window load, and refuses a submit before); a read need not.
  const first = context.capability.steps[0]!;
  const acts = canChangeState(first) || first.op === 'fill' || first.op === 'type';
  const watch = acts
    ? await context.harness.quiet.begin([context.options.page.mainFrame()], context.timeoutMs)
    : undefined;
  // The first step's look goes out now too, so the frame's first look (Playwright sets up its
  // script there, tens of ms) runs while the start page is read and watched, not after.
  if ('target' in first && first.op !== 'read')
    context.lookAhead.begin(context.pageStamp(), [
      { target: context.bind(first.target), want: first.op === 'wait_for' ? { visible: true } : {} },
    ]);
  // One read per frame gives both the classification and the start page's skeleton; read
  // while the scripts are watched, and again if they changed the page meanwhile (and the
  // first step looks again for itself).
  let start = await context.classifier.startPage();
  if (watch && !(await watch.settled)) {
    context.lookAhead.drop();
    start = await context.classifier.startPage();
  }
  // A password field on the very screen the capability was made on is one of its fields.
  const ownScreen =
    start.state.kind === 'auth_expired' &&
    !context.options.layoutTolerant &&
    (await startPageMismatch(context, start.skeleton)) === undefined;
  const settled = ownScreen ? 'ok' : await context.answer(start.state);
  if (settled !== 'ok') return settled;
  if (context.options.layoutTolerant) {
    context.emit('replay-precondition-checked', { checked: false, reason: 'layout-tolerant' });
    return 'ok';
  }
  // After a reload or an accepted dialog the page read first is gone: it is read again.
  const skeleton = start.state.kind === 'ok' || ownScreen ? start.skeleton : undefined;
  let mismatch = await startPageMismatch(context, skeleton);
  if (mismatch?.code === 'SURFACE_CHANGED' && start.state.kind === 'ok') {
    // The first read took a frame too busy to answer it for fine, or a script sent the page on
    // after it (to the sign-in page, say): the page at rest is classified before it is called
    // another screen, and a sign-in or error page there is answered as what it is.
    const atRest = await context.classifier.startPage();
    if (atRest.state.kind !== 'ok') {
      const settled = await context.answer(atRest.state);
      if (settled !== 'ok') return settled;
      mismatch = await startPageMismatch(context, undefined);
    }
  }
  context.emit('replay-precondition-checked', { checked: true, matches: mismatch === undefined });
  if (mismatch) throw mismatch;
  return 'ok';
}

/** The error that says the page is not the screen the capability was made on, if it is not. */
function startPageMismatch(
  context: StartContext,
  skeleton: string[] | undefined,
): Promise<LiftError | undefined> {
  const { navigationTimeoutMs } = context.harness.timings;
  return fingerprintMismatch(
    context.options.page,
    context.capability,
    skeleton,
    context.outcome(),
    navigationTimeoutMs,
  );
}
