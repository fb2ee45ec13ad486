import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { BrowserPool, Lease } from './browser.js';
import type { StorageState } from './storage-state.js';

/** The runtime service name of the one page pool a process shares (replay, discovery, handoff). */
export const PAGE_POOL_SERVICE = 'ui-page-pool';

/** A page of a pooled context whose profile keeps the application's sign-in between calls. */
export interface LeasedPage {
  page: Page;
  /** Keeps the profile's cookies (after a sign-in) for later contexts and processes. */
  save(): Promise<void>;
  release(): Promise<void>;
}

export function profileFor(origin: string): string {
  return `replay-${origin.replace(/^https?:\/\//, '').replace(/[^a-z0-9.-]+/gi, '-')}`.slice(0, 64);
}

interface Warm {
  lease: Lease;
  page: Page;
  origin: string;
}

/**
 * The UI rung's pool plus pages kept open per origin between calls, so
 * a warm replay pays neither a browser start nor a context start nor a profile load.
 */
export class PagePool {
  readonly pool: BrowserPool;
  readonly #idle: Warm[] = [];
  readonly #busy = new Set<Warm>();

  constructor(pool: BrowserPool) {
    this.pool = pool;
  }

  async page(origin: string): Promise<LeasedPage> {
    const index = this.#idle.findIndex((warm) => warm.origin === origin && !warm.page.isClosed());
    const warm = index >= 0 ? this.#idle.splice(index, 1)[0]! : await this.#open(origin);
    this.#busy.add(warm);
    return {
      page: warm.page,
      save: () => warm.lease.save(),
      release: async () => {
        if (!this.#busy.delete(warm)) return;
        if (warm.page.isClosed()) {
          await warm.lease.release();
          return;
        }
        this.#idle.push(warm);
      },
    };
  }

  /**
   * A page in a context of its own, for discovery: its listeners and request routing never
   * reach the warm replay pages. Release saves the profile (the sign-in) and closes it.
   */
  async fresh(origin: string, storageState?: StorageState): Promise<LeasedPage> {
    const warm = await this.#open(origin, storageState);
    return { page: warm.page, save: () => warm.lease.save(), release: () => warm.lease.release() };
  }

  async #open(origin: string, storageState?: StorageState): Promise<Warm> {
    const lease = await this.pool.acquire(profileFor(origin), storageState);
    const page = await lease.context.newPage();
    return { lease, page, origin };
  }

  async close(): Promise<void> {
    const all = [...this.#idle.splice(0), ...this.#busy];
    this.#busy.clear();
    await Promise.all(all.map((warm) => warm.lease.release().catch(() => undefined)));
    await this.pool.close();
  }
}

/** Starts the browser on first use; the browser driver is loaded only then. */
export async function startPagePool(home: string, headed = false): Promise<PagePool> {
  const { BrowserPool } = await import('./browser.js');
  return new PagePool(await BrowserPool.start({ profilesDir: join(home, 'profiles'), warm: 1, headed }));
}
