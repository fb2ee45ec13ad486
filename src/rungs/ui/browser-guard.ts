import type { Browser, CDPSession } from 'playwright-core';
import {
  answerPaused,
  GUARD_PATTERNS,
  type PausedRequest,
  questionOf,
  type RequestQuestion,
} from './paused-request.js';
import type { UiPolicy } from './policy.js';

/** What Chromium's Target domain says of a target (the fields used here). */
interface TargetInfo {
  targetId: string;
  type: string;
  openerId?: string;
  browserContextId?: string;
}

/** What the browser line needs of a page's guard. */
export interface GuardedPage {
  readonly policy: UiPolicy;
  /** Whether the policy lets this request leave; a refusal is recorded on the page. */
  allows(url: string, navigation: boolean, redirect: boolean): boolean;
  /** Records a request refused for what made it (a window the page opened), not for where it goes. */
  refuse(url: string, reason: string, navigation: boolean): void;
  /** The ids of the frames in the page now, asked when a request comes from a frame the line has not heard of. */
  frameIds?(): Promise<string[]>;
}

const OPENED_WINDOW = 'a window the page opened loads nothing';

/**
 * How long a page may take to name its frames: a page that does not answer (its renderer busy
 * or stuck) must not hold every request of a frame it may not even have.
 */
const ASK_PAGES_MS = 2_000;

function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The request guard of every page of a browser Lift launched: one Fetch session on the browser
 * itself pauses every request of every target, each hop of a redirect included, and a
 * document's redirect again when its answer comes in (before the browser acts on it), and
 * decides it here, once:
 * - a guarded page's own requests, its frames' and its workers', by that page's policy (its
 *   guard names its frames as they attach; a frame not heard of yet is asked of the pages);
 * - a window a guarded page opened (its first request included: the target is known before its
 *   navigation starts) and a page of a guarded context that has no guard of its own: nothing;
 * - a frame in a process of its own, a shared worker of a guarded context: its pages' policy.
 *
 * One pause per request: a page's own Fetch session pausing the same requests again cost a
 * request-heavy page a tenth of its load (phpMyAdmin's Browse, 87 requests: 1,211 ms with both,
 * 1,089 with this line alone, 842-903 bare). A Playwright context route would do it at a higher
 * price: Playwright turns the HTTP cache off for a context with a route (a MediaWiki page: 118 ms
 * bare, 250 with the route). A browser a person started is not Lift's to pause: there each page
 * has its own Fetch session and the context a route (request-guard.ts).
 */
export class BrowserGuard {
  readonly #session: CDPSession;
  readonly #targets = new Map<string, TargetInfo>();
  /** Pages with a guard of their own, by target id. */
  readonly #pages = new Map<string, { guard: GuardedPage; context: string }>();
  /** Frames of guarded pages (in the page's process), by frame id: the page's target id. */
  readonly #frames = new Map<string, string>();
  /** Frames no guarded page had when asked: frames of pages that are not guarded. */
  readonly #strangers = new Set<string>();
  /** Every context that ever had a guarded page: a page of it without a guard loads nothing. */
  readonly #contexts = new Set<string>();

  static readonly #guards = new WeakMap<Browser, Promise<BrowserGuard>>();

  static of(browser: Browser): Promise<BrowserGuard> {
    let guard = BrowserGuard.#guards.get(browser);
    if (!guard) {
      guard = BrowserGuard.#install(browser);
      BrowserGuard.#guards.set(browser, guard);
      // A failed install is not kept: the next page tries again.
      guard.catch(() => BrowserGuard.#guards.delete(browser));
    }
    return guard;
  }

  static async #install(browser: Browser): Promise<BrowserGuard> {
    const guard = new BrowserGuard(await browser.newBrowserCDPSession());
    await guard.#start();
    return guard;
  }

  private constructor(session: CDPSession) {
    this.#session = session;
  }

  /** From now on the page's requests are decided by its guard, and its context is guarded. */
  watch(targetId: string, context: string, guard: GuardedPage): void {
    this.#pages.set(targetId, { guard, context });
    this.#contexts.add(context);
    // A page guarded now may own a frame that no guarded page owned before.
    this.#strangers.clear();
  }

  /** A frame attached to a guarded page: its requests are the page's. */
  claimFrame(pageTargetId: string, frameId: string): void {
    if (this.#pages.has(pageTargetId)) this.#frames.set(frameId, pageTargetId);
  }

  async #start(): Promise<void> {
    const session = this.#session;
    session.on('Target.targetCreated', ({ targetInfo }: { targetInfo: TargetInfo }) => {
      this.#targets.set(targetInfo.targetId, targetInfo);
    });
    session.on('Target.targetInfoChanged', ({ targetInfo }: { targetInfo: TargetInfo }) => {
      this.#targets.set(targetInfo.targetId, targetInfo);
    });
    session.on('Target.targetDestroyed', ({ targetId }: { targetId: string }) => {
      this.#targets.delete(targetId);
      if (!this.#pages.delete(targetId)) return;
      for (const [frameId, page] of this.#frames) if (page === targetId) this.#frames.delete(frameId);
    });
    session.on('Fetch.requestPaused', (event: PausedRequest) => {
      const question = questionOf(event);
      const verdict = question === undefined ? true : this.#allows(event.frameId, question);
      if (typeof verdict === 'boolean') answerPaused(session, event, verdict);
      else
        verdict.then(
          (allowed) => answerPaused(session, event, allowed),
          // Not decided is refused: a request must never wait for an answer that does not come.
          () => answerPaused(session, event, false),
        );
    });
    // Every target there is now is reported before this returns, so none is unknown below.
    await session.send('Target.setDiscoverTargets', { discover: true });
    await session.send('Fetch.enable', { patterns: GUARD_PATTERNS });
  }

  #allows(frameId: string, question: RequestQuestion): boolean | Promise<boolean> {
    const page = this.#pageOf(frameId);
    if (page) return page.guard.allows(question.url, question.navigation, question.redirect);
    const target = this.#targets.get(frameId);
    if (target) return this.#allowsTarget(target, question);
    if (this.#pages.size === 0) return true;
    return this.#askPages(frameId).then((owner) =>
      owner
        ? owner.guard.allows(question.url, question.navigation, question.redirect)
        : this.#allowsUnknownFrame(question),
    );
  }

  #pageOf(frameId: string) {
    return this.#pages.get(frameId) ?? this.#pages.get(this.#frames.get(frameId) ?? '');
  }

  #allowsTarget(target: TargetInfo, { url, navigation, redirect }: RequestQuestion): boolean {
    const context = target.browserContextId;
    if (context === undefined || !this.#contexts.has(context)) return true;
    const guards = this.#guardsOf(context);
    if (target.type === 'page' || guards.length === 0) {
      for (const guard of guards) guard.refuse(url, OPENED_WINDOW, navigation);
      return false;
    }
    // A frame in a process of its own, a shared worker: held to the policy of the context's pages.
    return guards.every((guard) => guard.allows(url, navigation, redirect));
  }

  /**
   * A frame no guarded page has named yet: each is asked for its frames now (a frame that makes a
   * request is in its page's tree by then). Only a frame of a page that is not guarded is left.
   */
  async #askPages(frameId: string) {
    if (this.#strangers.has(frameId)) return undefined;
    const pages = [...this.#pages].filter(([, page]) => page.guard.frameIds !== undefined);
    let everyPageAnswered = true;
    await Promise.all(
      pages.map(async ([targetId, page]) => {
        const frames = await withinMs(page.guard.frameIds!(), ASK_PAGES_MS).catch(() => {
          everyPageAnswered = false;
          return [];
        });
        for (const frame of frames) this.claimFrame(targetId, frame);
      }),
    );
    const owner = this.#pageOf(frameId);
    if (!owner && everyPageAnswered) {
      if (this.#strangers.size >= 1_000) this.#strangers.clear();
      this.#strangers.add(frameId);
    }
    return owner;
  }

  /**
   * A frame of a page that is not guarded: another context's (not the line's business), or a
   * frame inside a window a guarded page opened (the opener can write one into a blank window
   * before it is closed): while such a window is open, a request of such a frame must be allowed
   * by the policy of every opener.
   */
  #allowsUnknownFrame({ url, navigation, redirect }: RequestQuestion): boolean {
    const openers = new Set<GuardedPage>();
    for (const target of this.#targets.values()) {
      if (target.type !== 'page' || this.#pages.has(target.targetId)) continue;
      if (target.browserContextId === undefined || !this.#contexts.has(target.browserContextId)) continue;
      for (const guard of this.#guardsOf(target.browserContextId)) openers.add(guard);
    }
    return [...openers].every((guard) => guard.allows(url, navigation, redirect));
  }

  #guardsOf(context: string): GuardedPage[] {
    return [...this.#pages.values()].filter((page) => page.context === context).map((page) => page.guard);
  }
}
