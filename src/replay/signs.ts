import type { Page } from 'playwright-core';
import { bindPlaceholders, type Capability, type OutcomeSign } from '../capability/capability.js';
import { pageFingerprint } from '../capability/fingerprint.js';
import { resolveTarget } from '../rungs/ui/locator.js';
import type { PageTracker } from '../rungs/ui/page-tracker.js';

/**
 * The outcome signs discovery learned (capability.signs), looked for where they were seen:
 * after the same number of steps, with the run's own inputs in them. A sign holds when the
 * page shows one of its texts and, when discovery saw one, its documents' HTTP status.
 */
export class OutcomeSigns {
  readonly #page: Page;
  readonly #tracker: PageTracker;
  readonly #signs: readonly OutcomeSign[];
  readonly #inputs: Record<string, unknown>;

  constructor(page: Page, tracker: PageTracker, capability: Capability, inputs: Record<string, unknown>) {
    this.#page = page;
    this.#tracker = tracker;
    this.#signs = capability.signs ?? [];
    this.#inputs = inputs;
  }

  /** Whether the capability has signs of this outcome: words then decide nothing about it. */
  declares(outcome: OutcomeSign['outcome']): boolean {
    return this.#signs.some((sign) => sign.outcome === outcome);
  }

  /** Whether a sign of the outcome is expected after this many steps (nothing to look at otherwise). */
  expects(outcome: OutcomeSign['outcome'], after: number): boolean {
    return this.#signs.some((sign) => sign.outcome === outcome && sign.after === after);
  }

  /** The sign of the outcome the page shows now, after `after` steps; one look, no waiting. */
  async shown(outcome: OutcomeSign['outcome'], after: number): Promise<OutcomeSign | undefined> {
    for (const sign of this.#signs) {
      if (sign.outcome !== outcome || sign.after !== after) continue;
      if (sign.status !== undefined && this.#status() !== sign.status) continue;
      const visible = await Promise.all(sign.shows.map((target) => this.#visible(target)));
      if (visible.some(Boolean)) return sign;
      if (sign.message && sign.structure && (await this.#visible(sign.message))) {
        // The message alone is words: the page must also be built as the example's was.
        const { fingerprint } = await pageFingerprint(this.#page).catch(() => ({ fingerprint: '' }));
        if (fingerprint === sign.structure) return sign;
      }
    }
    return undefined;
  }

  #status(): number | undefined {
    const statuses = this.#page
      .frames()
      .map((frame) => this.#tracker.status(frame))
      .filter((status): status is number => status !== undefined);
    return statuses.length > 0 ? Math.max(...statuses) : undefined;
  }

  async #visible(raw: OutcomeSign['shows'][number]): Promise<boolean> {
    const locator = await resolveTarget(this.#page, bindPlaceholders(raw, this.#inputs));
    return locator
      .first()
      .isVisible()
      .catch(() => false);
  }
}
