import type { Page } from 'playwright-core';
import type { Target } from '../rungs/ui/locator.js';
import { type Probe, probeTarget } from './targets.js';

/** What a look asks of its target, as `probeTarget` takes it. */
export type Want = { visible?: boolean; text?: boolean };

/**
 * First looks at targets that are only read, sent together: a run of read steps (and the
 * checkpoint after a run that ends the capability) reads a page nothing acts on in between,
 * so their first looks can go out at once instead of one after the other, each a few round
 * trips to the renderer. A look is used only as the first look of its step, on the page it
 * was taken on (no document loaded and nothing done since), and only while every look before
 * it was used: a step that had to wait for its target means the page was still coming, and
 * the looks taken with it are dropped, so each step after looks afresh as it always did.
 * The first step's look is sent this way too, with the start page's read.
 */
export class LookAhead {
  readonly #page: Page;
  readonly #looks = new Map<string, Promise<Probe | undefined>>();
  #stamp = '';

  constructor(page: Page) {
    this.#page = page;
  }

  /** Sends the looks now; `stamp` names the page they are taken on (documents loaded, last action). */
  begin(stamp: string, looks: Array<{ target: Target; want: Want }>): void {
    this.#looks.clear();
    this.#stamp = stamp;
    for (const { target, want } of looks) {
      const key = keyOf(target, want);
      // A look that fails is no answer: the step looks for itself, and meets the failure there.
      if (!this.#looks.has(key))
        this.#looks.set(
          key,
          probeTarget(this.#page, target, want).catch(() => undefined),
        );
    }
  }

  /** Drops every look sent: the page they were taken on changed before they were used. */
  drop(): void {
    this.#looks.clear();
  }

  /**
   * The look sent for this target when it found exactly one and the page is the one it was
   * taken on; otherwise undefined, and every look still waiting is dropped.
   */
  async take(stamp: string, target: Target, want: Want): Promise<Probe | undefined> {
    const key = keyOf(target, want);
    const look = stamp === this.#stamp ? this.#looks.get(key) : undefined;
    this.#looks.delete(key);
    const probe = await look;
    if (probe?.count === 1) return probe;
    this.#looks.clear();
    return undefined;
  }
}

function keyOf(target: Target, want: Want): string {
  return JSON.stringify([target, want.visible === true, want.text === true]);
}
