import type { LeasedPage } from '../rungs/ui/page-pool.js';
import type { UiPolicy } from '../rungs/ui/policy.js';
import { loadStorageState } from '../rungs/ui/storage-state.js';
import type { Runtime } from '../runtime/runtime.js';

/**
 * Which browser an exploration drives: Lift's own (the default), Lift's own loaded with a
 * person's saved sign-in (`--storage-state FILE`), or a browser the person started and is
 * signed in to (`--browser-url` / `--cdp-endpoint`), for sign-ins a recipe cannot type
 * (single sign-on, a second factor).
 */
export interface BrowserChoice {
  /** The debugging address of a browser the person started. */
  endpoint?: string;
  /** A storage state file (absolute path) loaded into Lift's profile for the start origin. */
  storageState?: string;
}

/** The page an exploration runs in, for the start URL's origin. */
export async function openExplorationPage(
  runtime: Runtime,
  startUrl: string,
  policy: UiPolicy,
  choice: BrowserChoice = {},
): Promise<LeasedPage> {
  if (choice.endpoint) {
    const { attachedPage } = await import('../rungs/ui/attach.js');
    return attachedPage(choice.endpoint, policy);
  }
  // Read before a browser starts: a bad file is the caller's error, not a failed session.
  const storageState = choice.storageState ? loadStorageState(choice.storageState) : undefined;
  const { PAGE_POOL_SERVICE, startPagePool } = await import('../rungs/ui/page-pool.js');
  const pool = await runtime.service(PAGE_POOL_SERVICE, () => startPagePool(runtime.home));
  return pool.fresh(new URL(startUrl).origin, storageState);
}
