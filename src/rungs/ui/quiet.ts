import type { Frame, JSHandle, Locator, Page, Request } from 'playwright-core';

/** How long the page must stay unchanged (no DOM mutation, no request in flight) to count as settled. */
export const QUIET_MS = 25;

/** Request types that never finish while a page is open: they do not keep it busy. */
const STREAMS = new Set(['eventsource', 'websocket', 'manifest', 'other']);

/**
 * Waits, after a step that can trigger work, until the page has settled: the requests it
 * started are answered and the step's frame has not changed for a quiet period. Event-driven
 * (request events, a MutationObserver in the frame), bounded, and one short look when nothing
 * happens, so a re-rendering form is acted on after it re-rendered, never while it does.
 */
export class QuietWatch {
  readonly #page: Page;
  /** Requests in flight, with when each started (Date.now). */
  readonly #inFlight = new Map<Request, number>();
  #idle: Array<() => void> = [];
  /** Wakes a wait when a dialog opens: the page runs no script until someone answers it. */
  #onDialog: Array<() => void> = [];
  #dialogs = 0;
  readonly #dialogPending: () => boolean;
  readonly #off: () => void;
  /** When a request of the page last started or ended (Date.now), 0 before any. */
  lastRequestAt = 0;

  /** `dialogPending`: whether a dialog is open and unanswered (the page tracker knows). */
  constructor(page: Page, dialogPending: () => boolean) {
    this.#page = page;
    this.#dialogPending = dialogPending;
    const started = (request: Request) => {
      if (STREAMS.has(request.resourceType())) return;
      this.lastRequestAt = Date.now();
      this.#inFlight.set(request, this.lastRequestAt);
    };
    const done = (request: Request) => {
      if (!this.#inFlight.delete(request)) return;
      this.lastRequestAt = Date.now();
      // Each waiter looks again whether the requests it waits for are answered.
      for (const wake of this.#idle.splice(0)) wake();
    };
    const dialog = () => {
      this.#dialogs++;
      for (const wake of this.#onDialog.splice(0)) wake();
      for (const wake of this.#idle.splice(0)) wake();
    };
    page.on('request', started);
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    page.on('dialog', dialog);
    this.#off = () => {
      page.off('dialog', dialog);
      page.off('request', started);
      page.off('requestfinished', done);
      page.off('requestfailed', done);
    };
  }

  detach(): void {
    this.#off();
    this.#inFlight.clear();
    for (const wake of this.#idle.splice(0)) wake();
  }

  /**
   * Settles `scope`: a frame, or the frame of a locator (the main frame when it is gone), within
   * `timeoutMs`; true when it came to rest, false when the bound or a dialog ended the wait. A frame is watched without an element, which is cheaper: a locator's first
   * call in the page's own world costs 40–90 ms in each document.
   * `since` (Date.now): only requests started then or later keep the page busy, so a
   * request that was already hanging before the step does not hold every step after it.
   */
  async settle(
    scope: Locator | Frame | Frame[] | undefined,
    timeoutMs: number,
    options: { domWindow?: boolean; since?: number } = {},
  ): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    const since = options.since ?? 0;
    const dialogsBefore = this.#dialogs;
    if (this.#dialogPending()) return false;
    for (let round = 0; round < 20 && performance.now() < deadline; round++) {
      await this.#requestsAnswered(deadline, since);
      if (options.domWindow === false) return !this.#busySince(since);
      const changed = await this.#domQuiet(scope, deadline);
      if (!changed && !this.#busySince(since)) return true;
      if (this.#dialogs > dialogsBefore || this.#dialogPending()) return false;
    }
    return false;
  }

  /**
   * Starts watching `frames` now, so that a look sent after this returns can go out while the
   * page settles (instead of after): `settled` resolves once the frames have settled, true when
   * nothing changed in them and no request was in flight from the start of the watch on. Only
   * then is a look taken meanwhile as good as one taken after; otherwise look again.
   */
  async begin(frames: Frame[], timeoutMs: number): Promise<QuietSince> {
    const deadline = performance.now() + timeoutMs;
    const dialogsBefore = this.#dialogs;
    const main = frames.includes(this.#page.mainFrame());
    const busy = this.#busySince(0) || this.#dialogPending();
    const installing = busy
      ? Promise.resolve([])
      : Promise.all(frames.map((frame) => frame.evaluateHandle(START_WATCH).catch(() => undefined)));
    // A dialog that opens meanwhile blocks the frame's script, and the watch with it.
    const watches = await this.unlessDialog(installing, timeoutMs, []);
    const started = watches.filter((watch) => watch !== undefined);
    if (started.length < frames.length) {
      const dispose = (handles: Array<WatchHandle | undefined>) => {
        for (const watch of handles) watch?.dispose().catch(() => undefined);
      };
      // Handles that come after the dialog is answered are let go as they come.
      if (watches.length === 0) installing.then(dispose, () => undefined);
      dispose(watches);
      const rested = this.settle(frames, timeoutMs);
      return { settled: rested.then(() => false), mainAtRest: rested.then((at) => at && main) };
    }
    let rested = false;
    const settled = (async () => {
      const max = Math.max(QUIET_MS, Math.round(deadline - performance.now()));
      const waits = frames.map((frame, index) =>
        frame
          .evaluate(CHANGED_SINCE, [started[index]!, QUIET_MS, max] as [WatchHandle, number, number])
          .catch(() => true),
      );
      const changed = (await this.unlessDialog(Promise.all(waits), max, [false])).some(Boolean);
      for (const watch of started) watch.dispose().catch(() => undefined);
      const quiet = !changed && !this.#busySince(0) && this.#dialogs === dialogsBefore;
      rested = quiet || (await this.settle(frames, Math.max(0, deadline - performance.now())));
      return quiet;
    })();
    return { settled, mainAtRest: settled.then(() => rested && main) };
  }

  #busySince(since: number): boolean {
    for (const started of this.#inFlight.values()) if (started >= since) return true;
    return false;
  }

  async #requestsAnswered(deadline: number, since: number): Promise<void> {
    while (this.#busySince(since) && performance.now() < deadline && !this.#dialogPending()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - performance.now()));
        this.#idle.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Whether the frame changed before it stayed quiet for QUIET_MS (false: quiet throughout). */
  async #domQuiet(scope: Locator | Frame | Frame[] | undefined, deadline: number): Promise<boolean> {
    const args: [number, number] = [QUIET_MS, Math.max(QUIET_MS, Math.round(deadline - performance.now()))];
    const frames = scope === undefined ? [this.#page.mainFrame()] : Array.isArray(scope) ? scope : [scope];
    const watched = frames.map((each) =>
      // The element or document is gone (its frame navigated, or a re-render replaced it): the page changed.
      (
        (isFrame(each)
          ? each.evaluate(WATCH_FRAME, args)
          : each.evaluate(WATCH_DOM, args, { timeout: QUIET_MS * 4 })) as Promise<boolean>
      ).catch(() => true),
    );
    return (await this.unlessDialog(Promise.all(watched), args[1], [false])).some(Boolean);
  }

  /**
   * `work` on the page, unless a dialog is open or opens first: a dialog blocks the frame's
   * script, so a look or a wait there would not answer until someone answers the dialog.
   * `blockedAnswer` then, and also after `maxMs` (and a margin).
   */
  async unlessDialog<T>(work: Promise<T>, maxMs: number, blockedAnswer: T): Promise<T> {
    if (this.#dialogPending()) return blockedAnswer;
    let timer: NodeJS.Timeout | undefined;
    const blocked = new Promise<T>((resolve) => {
      this.#onDialog.push(() => resolve(blockedAnswer));
      timer = setTimeout(() => resolve(blockedAnswer), maxMs + QUIET_MS * 8);
    });
    const answer = await Promise.race([work, blocked]);
    clearTimeout(timer);
    this.#onDialog = [];
    return answer;
  }
}

/** A watch begun before a look: see QuietWatch.begin. */
export interface QuietSince {
  settled: Promise<boolean>;
  /**
   * Resolves with `settled`: true when the watch took in the main frame and its frames were at
   * rest then (quiet throughout, or settled after changing, within the bound). A document that
   * loaded before that needs no wait of its own for its scripts: the watch waited them out.
   */
  mainAtRest: Promise<boolean>;
}

/**
 * In the frame: resolves true once the document has been quiet for `quiet` ms after changing,
 * false if it never changed, or at `max`. Source text, so no bundler can wrap it in helpers.
 */
const WATCH_DOM_SOURCE = `(_, [quiet, max]) => new Promise((resolve) => {
  let changed = false;
  let timer;
  let stop;
  const observer = new MutationObserver(() => {
    changed = true;
    clearTimeout(timer);
    timer = setTimeout(finish, quiet);
  });
  const finish = () => {
    observer.disconnect();
    clearTimeout(timer);
    clearTimeout(stop);
    resolve(changed);
  };
  timer = setTimeout(finish, quiet);
  stop = setTimeout(finish, max);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})`;

// A function made from the source text: Playwright sends a function's text and calls it with the argument.
const WATCH_DOM = new Function(`return ${WATCH_DOM_SOURCE}`)() as (
  element: unknown,
  args: [number, number],
) => Promise<boolean>;

const WATCH_FRAME = new Function(`return (args) => (${WATCH_DOM_SOURCE})(undefined, args)`)() as (
  args: [number, number],
) => Promise<boolean>;

function isFrame(scope: Locator | Frame): scope is Frame {
  return 'childFrames' in scope;
}

/** What a watch begun in a frame has seen: how many changes, and when the last one came. */
interface WatchState {
  changes: number;
  last: number;
  observer: MutationObserver;
}

/** In the frame: starts counting changes to the document; the state stays in the page until disposed. */
const START_WATCH = new Function(`return () => {
  const state = { changes: 0, last: performance.now() };
  state.observer = new MutationObserver(() => {
    state.changes++;
    state.last = performance.now();
  });
  state.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  return state;
}`)() as () => WatchState;

/** In the frame: once nothing has changed for `quiet` ms (or at `max`), whether anything changed since the watch began. */
const CHANGED_SINCE = new Function(`return ([state, quiet, max]) => new Promise((resolve) => {
  const started = performance.now();
  const look = () => {
    const now = performance.now();
    if (now - state.last >= quiet || now - started >= max) {
      state.observer.disconnect();
      resolve(state.changes > 0);
    } else setTimeout(look, quiet - (now - state.last));
  };
  look();
})`)() as (args: [WatchState, number, number]) => Promise<boolean>;

/** A watch's state as Playwright passes it back into the frame. */
type WatchHandle = JSHandle<WatchState>;
