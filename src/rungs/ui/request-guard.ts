import type { Browser, BrowserContext, CDPSession, Frame, Page, Request, Route } from 'playwright-core';
import { BrowserGuard } from './browser-guard.js';
import { type BlockedRequest, PageTracker } from './page-tracker.js';
import {
  answerPaused,
  frameIdsOf,
  GUARD_PATTERNS,
  type PausedRequest,
  questionOf,
} from './paused-request.js';
import { checkUrl, type UiPolicy } from './policy.js';

/** Origin and path of a URL, never its query or fragment (they carry bound input values). */
export function originAndPath(rawUrl: string): { origin: string; path: string } {
  try {
    const url = new URL(rawUrl);
    if (url.origin === 'null') return { origin: url.protocol, path: '' };
    return { origin: url.origin, path: url.pathname };
  } catch {
    return { origin: '(not a URL)', path: '' };
  }
}

function stopped(rawUrl: string, reason: string, navigation: boolean, redirect: boolean): BlockedRequest {
  const { origin, path } = originAndPath(rawUrl);
  return { origin, path, url: `${origin}${path}`, reason, navigation, redirect, at: Date.now() };
}

/** The verdict's reason without the raw URL checkUrl quotes when it cannot parse one. */
function reasonOf(policy: UiPolicy, rawUrl: string, navigation: boolean): string | undefined {
  const verdict = checkUrl(policy, rawUrl, navigation);
  if (verdict.allowed) return undefined;
  return originAndPath(rawUrl).origin === '(not a URL)' ? 'not a URL' : verdict.reason;
}

/**
 * The request guard of one page: every request the page makes, and every hop of every
 * redirect, is checked against the policy before it leaves the browser. Chromium's Fetch
 * domain pauses each request at the request stage, redirect hops included (Playwright's own
 * route handler is not asked again for a redirect, which is how redirects used to escape),
 * for documents, frames, form posts, subresources and the page's workers alike. A document's
 * redirect is also checked when its answer arrives, before the browser acts on it: a download
 * would otherwise open a connection to the next hop before that hop is paused. A refused
 * request fails as blocked-by-client and is recorded on the page's tracker.
 *
 * Who pauses: in a browser Lift launched, the browser's own Fetch session (browser-guard.ts),
 * once per request, asking this guard; in a browser a person started, the page's own session.
 */
export class RequestGuard {
  policy: UiPolicy;
  readonly page: Page;
  readonly tracker: PageTracker;
  /** The ids of the page's frames now (its session's frame tree), for the browser's line. */
  frameIds?: () => Promise<string[]>;
  readonly #frameSessions = new WeakSet<Frame>();

  static readonly #guards = new WeakMap<Page, RequestGuard>();

  /**
   * Guards the page (once; a guard already there takes the new policy). Call it before the
   * page loads anything: a page of a guarded context with no guard of its own loads nothing.
   */
  static async install(page: Page, policy: UiPolicy): Promise<RequestGuard> {
    const existing = RequestGuard.#guards.get(page);
    if (existing) {
      existing.policy = policy;
      return existing;
    }
    const guard = new RequestGuard(page, policy);
    RequestGuard.#guards.set(page, guard);
    const session = await page.context().newCDPSession(page);
    const browser = page.context().browser();
    const ownBrowser = browser !== null && !isPersonsBrowser(browser);
    await ContextGuard.of(page.context(), { route: !ownBrowser });
    if (ownBrowser) {
      await guard.#watchFromBrowserLine(browser, session);
    } else {
      await guard.#watch(session);
      page.on('framenavigated', (frame) => guard.#watchOutOfProcessFrame(frame));
    }
    return guard;
  }

  static of(page: Page): RequestGuard | undefined {
    return RequestGuard.#guards.get(page);
  }

  private constructor(page: Page, policy: UiPolicy) {
    this.page = page;
    this.policy = policy;
    this.tracker = PageTracker.of(page);
  }

  /** Whether the policy lets this request leave; a refusal is recorded. */
  allows(url: string, navigation: boolean, redirect: boolean): boolean {
    const reason = reasonOf(this.policy, url, navigation);
    if (reason === undefined) return true;
    this.tracker.recordBlocked(stopped(url, reason, navigation, redirect));
    return false;
  }

  /** Records a request refused for what it is (a new window), not for where it goes. */
  refuse(url: string, reason: string, navigation: boolean): void {
    this.tracker.recordBlocked(stopped(url, reason, navigation, false));
  }

  /**
   * In a browser Lift launched, the browser's line decides this page's requests (one pause each):
   * it is told of each frame as it attaches, and can ask for the page's frames when a request
   * comes from one it has not heard of.
   */
  async #watchFromBrowserLine(browser: Browser, session: CDPSession): Promise<void> {
    const line = await BrowserGuard.of(browser);
    const { targetInfo } = (await session.send('Target.getTargetInfo')) as {
      targetInfo: { targetId: string; browserContextId?: string };
    };
    const pageId = targetInfo.targetId;
    this.frameIds = () => frameIdsOf(session);
    session.on('Page.frameAttached', ({ frameId }: { frameId: string }) => line.claimFrame(pageId, frameId));
    line.watch(pageId, targetInfo.browserContextId ?? '', this);
    await session.send('Page.enable');
    for (const frameId of await frameIdsOf(session)) line.claimFrame(pageId, frameId);
  }

  /** In a browser a person started, the page's own Fetch session decides its requests. */
  async #watch(session: CDPSession): Promise<void> {
    session.on('Fetch.requestPaused', (event: PausedRequest) => {
      const question = questionOf(event);
      const allowed =
        question === undefined || this.allows(question.url, question.navigation, question.redirect);
      answerPaused(session, event, allowed);
    });
    await session.send('Fetch.enable', { patterns: GUARD_PATTERNS });
  }

  /**
   * A frame in a process of its own (site isolation) has its own session, which the page's
   * does not cover; Lift launches Chromium with frames in the page's process, so this only
   * matters for a browser launched elsewhere. Its requests are still checked by the browser's
   * line (or, in a person's browser, the first of each by the context's route, so what could
   * pass there before this session is enabled is a redirect hop).
   */
  #watchOutOfProcessFrame(frame: Frame): void {
    if (frame === this.page.mainFrame() || this.#frameSessions.has(frame)) return;
    this.page
      .context()
      .newCDPSession(frame)
      .then(async (session) => {
        this.#frameSessions.add(frame);
        await this.#watch(session);
      })
      // In the page's process: the page's session already covers the frame.
      .catch(() => undefined);
  }
}

const personsBrowsers = new WeakSet<Browser>();

/**
 * A browser a person started and Lift connected to (attach.ts): its other tabs are the
 * person's, so Lift does not pause the whole browser's requests; its pages are guarded by
 * their own sessions and a route on Lift's context.
 */
export function markPersonsBrowser(browser: Browser): void {
  personsBrowsers.add(browser);
}

function isPersonsBrowser(browser: Browser): boolean {
  return personsBrowsers.has(browser);
}

const SERVICE_WORKERS_OFF = `if (self.ServiceWorkerContainer) ServiceWorkerContainer.prototype.register = async () => { throw new DOMException('Service workers are off in Lift sessions.', 'SecurityError'); };`;

/**
 * What a guard needs of the whole context, installed once: no service workers (whose requests
 * no page session sees) and a window the page opened closed (`window.open`, `target=_blank`:
 * Lift works in one page, under one policy). The second line that keeps such a window, a frame
 * in another process and a shared worker from loading what the policy refuses is the browser's
 * (browser-guard.ts); in a browser that is not Lift's to pause it is a route on the context,
 * which checks the first request of everything the context loads and refuses every request of
 * a window the page opened (Playwright turns the HTTP cache off for it).
 */
class ContextGuard {
  readonly #context: BrowserContext;

  static readonly #guards = new WeakMap<BrowserContext, Promise<ContextGuard>>();

  static of(context: BrowserContext, options: { route: boolean }): Promise<ContextGuard> {
    let guard = ContextGuard.#guards.get(context);
    if (!guard) {
      guard = ContextGuard.#install(context, options);
      ContextGuard.#guards.set(context, guard);
    }
    return guard;
  }

  static async #install(context: BrowserContext, options: { route: boolean }): Promise<ContextGuard> {
    const guard = new ContextGuard(context);
    await context.addInitScript(SERVICE_WORKERS_OFF);
    if (options.route) await context.route('**/*', (route, request) => guard.#route(route, request));
    context.on('page', (page) => void guard.#closeIfOpened(page));
    return guard;
  }

  private constructor(context: BrowserContext) {
    this.#context = context;
  }

  #guardsOfContext(): RequestGuard[] {
    return this.#context
      .pages()
      .map((page) => RequestGuard.of(page))
      .filter((guard): guard is RequestGuard => guard !== undefined);
  }

  async #route(route: Route, request: Request): Promise<void> {
    const navigation = request.isNavigationRequest();
    const guard = pageOf(request) && RequestGuard.of(pageOf(request)!);
    if (!guard) {
      for (const each of this.#guardsOfContext())
        each.refuse(request.url(), 'a window the page opened loads nothing', navigation);
      return route.abort('blockedbyclient').catch(() => undefined);
    }
    if (!guard.allows(request.url(), navigation, false))
      return route.abort('blockedbyclient').catch(() => undefined);
    return route.fallback().catch(() => undefined);
  }

  async #closeIfOpened(page: Page): Promise<void> {
    if (RequestGuard.of(page)) return;
    // A page Lift opens itself has no opener; one the page opened does (unless noopener,
    // and then it still loads nothing: the route refuses every request of it).
    const opener = await page.opener().catch(() => null);
    if (!opener) return;
    RequestGuard.of(opener)?.tracker.recordPopupClosed(page.url());
    await page.close().catch(() => undefined);
  }
}

/** The page a request belongs to; undefined for a new window's first request (no frame yet). */
function pageOf(request: Request): Page | undefined {
  try {
    return request.frame().page();
  } catch {
    return undefined;
  }
}
