import { afterAll, beforeAll, expect, test } from 'vitest';
import { CapabilityStore } from '../../src/discover/capability-store.js';
import {
  MEMBER_LOOKUP_SCRIPT,
  memberLookupPolicy,
  memberLookupTask,
} from '../../src/discover/explorers/member-lookup-script.js';
import { ScriptedExplorer } from '../../src/discover/explorers/scripted.js';
import { runDiscovery } from '../../src/discover/run.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { openStore, type Store } from '../../src/store/store.js';
import { launchChromium, startBackoffice, tempHome } from '../replay/helpers.js';

let fixture: Awaited<ReturnType<typeof startBackoffice>>;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let store: Store;
const home = tempHome();
beforeAll(async () => {
  fixture = await startBackoffice();
  browser = await launchChromium();
  store = openStore(home.home);
});
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
  store?.close();
  home.cleanup();
});

test('scripted discovery compiles the member lookup', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const explorer = new ScriptedExplorer(MEMBER_LOOKUP_SCRIPT);
  const result = await runDiscovery({
    store,
    capabilities: new CapabilityStore(store.db, store.home),
    page,
    policy: parsePolicy(memberLookupPolicy(fixture.origin)),
    task: memberLookupTask(fixture.origin, 'M-1001'),
    explorer,
    hidden: ['Balance'],
    signIn: { user: 'operator', password: 'backoffice-demo' },
    liftVersion: '0.1.0',
  });

  console.log(JSON.stringify(result.capability, null, 1));
  console.log(result.status);
  expect(result.status.outcome).toBe('completed');
});
