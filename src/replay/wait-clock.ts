import type { PageHarness } from '../rungs/ui/harness.js';

/** A look at the page normally takes milliseconds; one this slow means the page or the machine is starved. */
const STARVED_LOOK_MS = 1_500;

/**
 * When the replay last acted on the page, and the documents loaded by then: the page's work
 * since is the action's, a wait counts from it, and a look or a memo taken since is named by it.
 */
export class ActionClock {
  readonly #harness: PageHarness;
  /** When the last action began (the replay's start before any): its requests are the page's work. */
  #lastActAt = Date.now();
  /** Documents loaded when the last action started. */
  #loadsAtAct = 0;

  constructor(harness: PageHarness) {
    this.#harness = harness;
  }

  /** An action begins now. */
  acting(): void {
    this.#loadsAtAct = this.#harness.tracker.loads;
    this.#lastActAt = Date.now();
  }

  /** Whether a document loaded since the last action began. */
  loadedSinceAction(): boolean {
    return this.#harness.tracker.loads !== this.#loadsAtAct;
  }

  /** Names the page as it is now for a look taken on it: the documents loaded and the last action. */
  pageStamp(): string {
    return `${this.#harness.tracker.loads} ${this.#lastActAt}`;
  }

  /** A wait counts the requests of the last action as its own: they are what the page is busy with. */
  startWait(timeoutMs: number): WaitClock {
    return new WaitClock(this.#harness, timeoutMs, this.#lastActAt);
  }
}

/** One wait of a step for its target or postcondition: its deadline, when it began, and its slowest look. */
export class WaitClock {
  readonly #harness: PageHarness;
  readonly #timeoutMs: number;
  readonly #since: number;
  #deadline: number;
  #slowestLookMs = 0;
  /** The page was busy when the deadline had passed; once it is not, one quiet period more. */
  #busyPastDeadline = false;
  #graceUntil: number | undefined;

  constructor(harness: PageHarness, timeoutMs: number, since: number) {
    this.#harness = harness;
    this.#timeoutMs = timeoutMs;
    this.#since = since;
    this.#deadline = performance.now() + timeoutMs;
  }

  /** The whole wait ahead again, from now: the page moved on (a list turned its page, a page that kept changing settled). */
  restart(): void {
    this.#deadline = performance.now() + this.#timeoutMs;
  }

  /** One look at the page, timed: a look that takes seconds says the machine is starved. */
  async timed<T>(look: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await look();
    } finally {
      this.#slowestLookMs = Math.max(this.#slowestLookMs, performance.now() - started);
    }
  }

  /**
   * Whether the page is still at work on what the step set off: a document on its way, a
   * script request started since the wait began, or looks so slow that the page (or the
   * machine) is starved. A deadline passed then says nothing about the screen.
   */
  busy(): boolean {
    const { tracker } = this.#harness;
    return tracker.loading || tracker.fetchingSince(this.#since) || this.#slowestLookMs > STARVED_LOOK_MS;
  }

  /** Whether the page has done nothing since the wait began and the wait is at least `ms` old. */
  atRestFor(ms: number): boolean {
    return Date.now() - this.#since >= ms && !this.busy();
  }

  /**
   * Whether the wait is over. A page still busy is no answer yet: the wait goes on while it
   * is, up to the navigation bound, so a slow server or a loaded machine is never a changed
   * screen.
   */
  pastDeadline(): boolean {
    const now = performance.now();
    if (now <= this.#deadline) return false;
    const { timings } = this.#harness;
    if (now > this.#deadline - this.#timeoutMs + timings.navigationTimeoutMs) return true;
    if (this.busy()) {
      this.#busyPastDeadline = true;
      return false;
    }
    // The request just ended: its answer is rendered a moment later, so look for one quiet period more.
    if (this.#busyPastDeadline) {
      this.#busyPastDeadline = false;
      this.#graceUntil = now + timings.quietMs;
    }
    return now > (this.#graceUntil ?? 0);
  }
}
