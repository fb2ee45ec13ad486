import type { Paging } from '../capability/capability.js';
import type { Target } from '../rungs/ui/locator.js';
import type { StepRunner } from './step-handlers.js';
import { probeTarget } from './targets.js';

/** What the page's next-page control needs of the replay: the page, and its document waits. */
export interface PagerHost {
  readonly page: import('playwright-core').Page;
  readonly timeoutMs: number;
  documentsSettled: StepRunner['documentsSettled'];
  scriptsSettled: StepRunner['scriptsSettled'];
  /** Waits out what is left of a late row's moment since the page last loaded or fetched anything. */
  lateRowsDrawn(): Promise<void>;
  emit(type: string, data?: Record<string, unknown>): void;
}

/**
 * Pages through a list the way the capability declares, when what a step looks for is not
 * on the page shown: 'next' after it showed the next page, 'last' when there is no next page
 * (the record is on none), 'none' when the capability does not page or the table is not
 * there yet (nothing to decide from).
 */
export class Pager {
  readonly #host: PagerHost;
  readonly #paging: Paging | undefined;
  readonly #notFoundDeclared: boolean;
  #turned = 0;

  constructor(host: PagerHost, paging: Paging | undefined, notFoundDeclared: boolean) {
    this.#host = host;
    this.#paging = paging;
    this.#notFoundDeclared = notFoundDeclared;
  }

  async turn(target: Target): Promise<'next' | 'last' | 'none'> {
    const paging = this.#paging;
    if (!paging) return (await this.#absentFromList(target)) ? 'last' : 'none';
    if (!(await this.#listShown(target))) return 'none';
    const next = await probeTarget(this.#host.page, paging.next, { visible: true });
    if (next.count !== 1 || !next.visible || this.#turned + 1 >= paging.pages) return 'last';
    this.#turned++;
    this.#host.emit('replay-page-turned', { page: this.#turned + 1 });
    const before = await next.locator.elementHandle({ timeout: 1_000 }).catch(() => null);
    await next.locator.click({ timeout: this.#host.timeoutMs });
    // The click's document may not have started loading yet: wait (bounded) until the old control
    // is gone, or the settle wait below sees the old page and the next turn reads it again.
    await before
      ?.waitForElementState('hidden', { timeout: Math.min(this.#host.timeoutMs, 2_000) })
      .catch(() => undefined);
    await before?.dispose().catch(() => undefined);
    await this.#host.documentsSettled();
    return 'next';
  }

  /** Whether `turn` settles the page and looks again before it calls a record absent. */
  settlesAbsence(target: Target): boolean {
    return !this.#paging && this.#notFoundDeclared && target.locator.by === 'cell';
  }

  /**
   * A list that does not page answers at once when its table is shown and, looked at again
   * once the page has settled (no document loading, the DOM still), has no row for the record:
   * the record is on no page, which is what not_found means.
   */
  async #absentFromList(target: Target): Promise<boolean> {
    if (!this.#notFoundDeclared || target.locator.by !== 'cell') return false;
    if (!(await this.#listShown(target))) return false;
    await this.#host.documentsSettled();
    await this.#host.scriptsSettled();
    // Rows a script draws a moment after its answer came (on a timer, no request in flight).
    await this.#host.lateRowsDrawn();
    const { count } = await probeTarget(this.#host.page, target);
    return count === 0;
  }

  /** A cell's table is shown (its column header is there): the page has answered. */
  async #listShown(target: Target): Promise<boolean> {
    if (target.locator.by !== 'cell') return true;
    const header: Target = {
      frame: target.frame,
      locator: { by: 'role', role: 'columnheader', name: target.locator.column },
    };
    const { count } = await probeTarget(this.#host.page, header);
    return count > 0;
  }
}
