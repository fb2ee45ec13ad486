import type { Browser, CDPSession } from 'playwright-core';
import type { UiPolicy } from './policy.js';

/** What Chromium's Target domain says of a target (the fields used here). */
interface TargetInfo {
  targetId: string;
  type: string;
  openerId?: string;
  browserContextId?: string;
}

/** What the browser's Fetch domain reports for a request it paused (the fields used here). */
interface PausedRequest {
  requestId: string;
  request: { url: string };
  resourceType: string;
  /** The frame that made the request; for a page's own frame and a worker of its own, the target's id. */
  frameId: string;
  redirectedRequestId?: string;
}

/** What the browser line needs of a page's guard. */
export interface GuardedPage {
  readonly policy: UiPolicy;
  /** Whether the policy lets this request leave; a refusal is recorded on the page. */
  allows(url: string, navigation: boolean, redirect: boolean): boolean;
  /** Records a request refused for what made it (a window the page opened), not for where it goes. */
  refuse(url: string, reason: string, navigation: boolean): void;
}

const OPENED_WINDOW = 'a window the page opened loads nothing';

/**
 * The request guard's second line, one per browser Lift launched: one Fetch session on the
 * browser itself pauses every request of every target, so what no page's own session sees is
 * checked here before it leaves: a window a guarded page opened (its first request included:
 * the target is known before its navigation starts) loads nothing; a page of a guarded context
 * that has no guard of its own loads nothing; a frame in a process of its own or a shared
 * worker of a guarded context is held to its pages' policy. A guarded page's own requests
 * pass on to its page guard (request-guard.ts), which decides them.
 *
 * This replaces a Playwright context route, which did the same from the other side at a price:
 * Playwright turns the HTTP cache off for a context with a route, and every load of a real
 * application then fetched its scripts and styles again (a MediaWiki page: 118 ms bare, 250
 * with the route, 125 with this line). A browser a person started is not Lift's to pause:
 * there the context route stays (request-guard.ts).
 */
export class BrowserGuard {
  readonly #session: CDPSession;
  readonly #targets = new Map<string, TargetInfo>();
  /** Pages with a guard of their own, by target id. */
  readonly #pages = new Map<string, { guard: GuardedPage; context: string }>();
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

  /** From now on the page's own requests are its guard's to decide, and its context is guarded. */
  watch(targetId: string, context: string, guard: GuardedPage): void {
    this.#pages.set(targetId, { guard, context });
    this.#contexts.add(context);
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
      this.#pages.delete(targetId);
    });
    session.on('Fetch.requestPaused', (event: PausedRequest) => {
      const { requestId } = event;
      const answer = this.#allows(event)
        ? session.send('Fetch.continueRequest', { requestId })
        : session.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' });
      // The target may close while a request waits; there is nothing left to answer then.
      answer.catch(() => undefined);
    });
    // Every target there is now is reported before this returns, so none is unknown below.
    await session.send('Target.setDiscoverTargets', { discover: true });
    await session.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
  }

  #allows(event: PausedRequest): boolean {
    const navigation = event.resourceType === 'Document';
    const redirect = event.redirectedRequestId !== undefined;
    const url = event.request.url;
    if (this.#pages.has(event.frameId)) return true;
    const target = this.#targets.get(event.frameId);
    if (!target) return this.#allowsUnknownFrame(url, navigation, redirect);
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
   * A frame that is not a target: a frame in its page's process, which the page's own session
   * sees when the page is guarded. The one it does not see is a frame inside a window a guarded
   * page opened (the opener can write one into a blank window before it is closed): while such a
   * window is open, a request of such a frame must be allowed by the policy of every opener.
   */
  #allowsUnknownFrame(url: string, navigation: boolean, redirect: boolean): boolean {
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
