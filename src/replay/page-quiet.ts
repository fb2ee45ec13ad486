import type { Frame, Locator, Page } from 'playwright-core';
import type { Postcondition } from '../capability/capability.js';
import { frameAt } from '../rungs/ui/frame-at.js';
import type { PageHarness } from '../rungs/ui/harness.js';
import type { FramePath, Target } from '../rungs/ui/locator.js';
import type { QuietSince } from '../rungs/ui/quiet.js';
import { CHUNK_MS } from './postconditions.js';
import type { ActionClock } from './wait-clock.js';

/**
 * The replay's waits for the page to settle after a step: its documents arrived, its scripts
 * at rest, the frame the step acted in (or expects something in) quiet. What each wait means
 * to a step is told in StepRunner (step-handlers.ts).
 */
export class PageQuiet {
  readonly #page: Page;
  readonly #harness: PageHarness;
  readonly #clock: ActionClock;
  readonly #timeoutMs: number;
  readonly #bind: (target: Target) => Target;

  constructor(
    page: Page,
    harness: PageHarness,
    clock: ActionClock,
    timeoutMs: number,
    bind: (target: Target) => Target,
  ) {
    this.#page = page;
    this.#harness = harness;
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
    this.#bind = bind;
  }

  async quiet(near: { target: Target; locator: Locator } | undefined): Promise<void> {
    // A step that loaded a document waited for it, but not for the scripts that build it: an
    // app that sets itself up after load and asks for its content then (Roundcube fetches the
    // message list, and ignores a folder click until it has it) is watched, in its main frame,
    // until those requests are answered and the DOM is still, as after the start page loads.
    if (this.#clock.loadedSinceAction()) return this.scriptsSettled();
    // The target's frame is watched as a frame, without its element: cheaper in a new document;
    // the element's while a dialog blocks the frame's answer.
    const [frame] = near ? await this.#framesAt([this.#bind(near.target).frame]) : [undefined];
    await this.#harness.quiet.settle(frame ?? near?.locator, this.#timeoutMs);
  }

  /**
   * After a document loaded: waits until its scripts stop re-rendering it too (an app that
   * replaces its form's fields once loaded, as MediaWiki's widgets do), the DOM still for a
   * quiet period. One short look when nothing changes.
   */
  async scriptsSettled(): Promise<void> {
    await this.#harness.quiet.settle(undefined, this.#timeoutMs);
  }

  async quietFrom(
    near: { target: Target; locator: Locator } | undefined,
    expect: Postcondition | undefined,
  ): Promise<QuietSince> {
    // The frames quiet() watches, and the one the step expects something in.
    const loaded = this.#clock.loadedSinceAction();
    const paths: FramePath[] = [loaded || !near ? [] : this.#bind(near.target).frame];
    if (expect && 'target' in expect) paths.push(this.#bind(expect.target).frame);
    const frames = await this.#framesAt(paths);
    if (frames.some((frame) => frame === undefined)) {
      // A frame known only through a locator (another origin's, by title): watched before the look.
      await this.quiet(near);
      return { settled: Promise.resolve(true), mainAtRest: Promise.resolve(false) };
    }
    const watched = [...new Set(frames as Frame[])];
    // A document that just came is still being parsed: its parser's changes are not a script's.
    if (loaded)
      await Promise.all(
        watched.map((frame) =>
          frame.waitForLoadState('domcontentloaded', { timeout: this.#timeoutMs }).catch(() => undefined),
        ),
      );
    return this.#harness.quiet.begin(watched, this.#timeoutMs);
  }

  documentsSettled(): Promise<void> {
    return this.#harness.tracker.documentsSettled(this.#timeoutMs);
  }

  /** Waits out what is left of a late row's moment (CHUNK_MS) since the page last loaded or fetched anything. */
  async lateRowsDrawn(): Promise<void> {
    const last = Math.max(this.#harness.tracker.lastActivity, this.#harness.quiet.lastRequestAt);
    const left = CHUNK_MS - (Date.now() - last);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  }

  /**
   * The frames these paths name (frameAt), each undefined when not found. Finding a frame by
   * its title asks the frame, which a dialog blocks: all undefined while one is open.
   */
  #framesAt(paths: FramePath[]): Promise<Array<Frame | undefined>> {
    const found = Promise.all(paths.map((path) => frameAt(this.#page, path)));
    return this.#harness.quiet.unlessDialog(
      found,
      this.#timeoutMs,
      paths.map(() => undefined),
    );
  }
}
