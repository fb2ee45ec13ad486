import type { Browser } from 'playwright-core';
import type { Capability } from '../../src/capability/capability.js';
import { CapabilityStore } from '../../src/capability/store.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import type { Explorer } from '../../src/discover/explorers/explorer.js';
import { type DiscoveryResult, runDiscovery } from '../../src/discover/run.js';
import type { DiscoveryTask } from '../../src/discover/types.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { openStore } from '../../src/store/store.js';
import { tempDir } from '../support/temp.js';

/**
 * One discovery on a page of a test's own server (servePages), in a fresh context, with no
 * sign-in: the explorer's calls go through the four tools as a model's would. Answers the
 * result and the capability stored, if any.
 */
export async function discoverOnOwnPage(
  browser: Browser,
  origin: string,
  task: DiscoveryTask,
  explorer: Explorer,
): Promise<{ result: DiscoveryResult; capability: Capability | undefined }> {
  const home = tempDir('lift-own-page-discovery-');
  const store = openStore(home.path);
  const context = await browser.newContext();
  try {
    const result = await runDiscovery({
      store,
      capabilities: new CapabilityStore(store.capabilities),
      page: await context.newPage(),
      policy: parsePolicy({
        version: 1,
        origins: [origin],
        paths: ['/**'],
        budgets: { steps: 30, seconds: 120, rejected: 5 },
      }),
      task,
      explorer,
      liftVersion: LIFT_VERSION,
    });
    return { result, capability: result.capability };
  } finally {
    await context.close();
    await store.close();
    home.remove();
  }
}
