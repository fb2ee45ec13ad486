import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { BrowserPool } from '../rungs/ui/browser.js';

export const REPLAY_POOL_SERVICE = 'replay-browser-pool';

/** A page of a pooled context whose profile keeps the application's sign-in between calls. */
export interface ReplayPage {
  page: Page;
  release(): Promise<void>;
}

export function profileFor(origin: string): string {
  return `replay-${origin.replace(/^https?:\/\//, '').replace(/[^a-z0-9.-]+/gi, '-')}`.slice(0, 64);
}

/** Starts the pool on first use; the browser driver is loaded only then. */
export async function startReplayPool(home: string, headed = false): Promise<BrowserPool> {
  const { BrowserPool } = await import('../rungs/ui/browser.js');
  return BrowserPool.start({ profilesDir: join(home, 'profiles'), warm: 1, headed });
}

/** Leases a context for the origin (its own profile) and opens a page in it. */
export async function leasePage(pool: BrowserPool, origin: string): Promise<ReplayPage> {
  const lease = await pool.acquire(profileFor(origin));
  const page = await lease.context.newPage();
  return {
    page,
    release: async () => {
      await page.close().catch(() => undefined);
      await lease.release();
    },
  };
}
