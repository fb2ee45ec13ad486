import type { Postcondition } from '../capability/capability.js';
import type { Target } from '../rungs/ui/locator.js';

/**
 * The target the last postcondition saw exactly once and visible, and the page it saw it on:
 * the next step that acts on that target need not look for it again.
 */
export class SeenTarget {
  readonly #pageStamp: () => string;
  #seen: { key: string; stamp: string } | undefined;

  /** `pageStamp`: the page as it is now (documents loaded, last action); what was seen holds only on that page. */
  constructor(pageStamp: () => string) {
    this.#pageStamp = pageStamp;
  }

  /**
   * A postcondition held. Navigation events reach us before the answer of a look taken in the
   * new document, so the stamp taken now covers the document the target was seen in. A settle
   * that expected nothing (a wait_for that saw its target) looked at nothing: what the last one
   * saw still stands, until an action or a load.
   */
  held(expect: Postcondition | undefined): void {
    if (expect?.kind === 'none') return;
    this.#seen =
      expect?.kind === 'visible'
        ? { key: JSON.stringify(expect.target), stamp: this.#pageStamp() }
        : undefined;
  }

  /** Whether the last postcondition saw exactly this target, once and visible, with nothing done or loaded since. */
  justSeen(target: Target): boolean {
    const seen = this.#seen;
    return (
      seen !== undefined &&
      seen.stamp === this.#pageStamp() &&
      target.locator.by !== 'cell' &&
      seen.key === JSON.stringify(target)
    );
  }
}
