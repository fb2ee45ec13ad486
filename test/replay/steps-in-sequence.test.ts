import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberLookupPolicy, memberLookupTask } from '../../src/apps/backoffice/member-lookup-script.js';
import { CapabilityStore } from '../../src/capability/store.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { type Script, ScriptedExplorer } from '../../src/discover/explorers/scripted.js';
import { runDiscovery } from '../../src/discover/run.js';
import { loadMembers } from '../../src/fixtures/backoffice/index.js';
import { replayCapability } from '../../src/replay/engine.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { passwordFormSignIn } from '../../src/rungs/ui/sign-in.js';
import { openStore, type Store } from '../../src/store/store.js';
import { launchChromium, signedInPage, startBackoffice, tempHome } from './helpers.js';

// One act batch whose steps each start on the document the previous one loaded: Enter submits
// the lookup (a new document in the Workspace frame), then a link of that new document is
// clicked, and so on, with no observe in between; the same steps replay the same way.
let fixture: Awaited<ReturnType<typeof startBackoffice>>;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let store: Store;
const home = tempHome();
const members = new Map(loadMembers().map((member) => [member.id, member]));
const workspace = ['Workspace'];
const field = { frame: workspace, locator: { by: 'label', label: 'Member ID' } };

beforeAll(async () => {
  // Slow pages: each new document arrives well after the key press that asked for it.
  fixture = await startBackoffice({ scenario: 'slow', slowMs: 400 });
  browser = await launchChromium();
  store = openStore(home.home);
});
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
  await store?.close();
  home.cleanup();
});

const SCRIPT: Script = {
  explorer: 'scripted',
  calls: [
    {
      tool: 'act',
      args: {
        actions: [
          { op: 'click', target: { frame: [], locator: { by: 'role', role: 'link', name: 'Members' } } },
          { op: 'fill', target: field, value: { input: 'memberId' } },
          { op: 'press', key: 'Enter', target: field },
          {
            op: 'click',
            target: { frame: workspace, locator: { by: 'role', role: 'link', name: 'Back to lookup' } },
          },
          { op: 'fill', target: field, value: { input: 'memberId' } },
          { op: 'press', key: 'Enter', target: field },
        ],
      },
    },
    {
      tool: 'act',
      args: {
        actions: [
          {
            op: 'read',
            target: { frame: workspace, locator: { by: 'cell', row: 'Savings', column: 'Currency' } },
            as: 'currency',
          },
        ],
      },
    },
    {
      tool: 'complete',
      args: {
        outputs: ['currency'],
        checkpoint: {
          target: {
            frame: workspace,
            locator: { by: 'cell', row: '{{input.memberId}}', column: 'Member ID' },
          },
          input: 'memberId',
        },
      },
    },
  ],
};

describe('steps that follow each other across documents', () => {
  it('runs press Enter then a click on the new document in one batch, in discovery and in replay', async () => {
    const context = await browser.newContext();
    const explorer = new ScriptedExplorer(SCRIPT);
    const result = await runDiscovery({
      store,
      capabilities: new CapabilityStore(store.capabilities),
      page: await context.newPage(),
      policy: parsePolicy(memberLookupPolicy(fixture.origin)),
      task: {
        ...memberLookupTask(fixture.origin, 'M-1001'),
        outputs: [{ name: 'currency', type: 'string' }],
      },
      explorer,
      signIn: { recipe: passwordFormSignIn(fixture.user, { literal: 'backoffice-demo' }) },
      liftVersion: LIFT_VERSION,
    }).finally(() => context.close());
    const batch = explorer.replies[0]?.reply as { results?: Array<{ status: string; op: string }> };
    expect(batch.results?.map((step) => step.status)).toEqual(Array(6).fill('executed'));
    expect(result.status.outcome, JSON.stringify(explorer.replies.at(-1))).toBe('completed');
    const capability = result.capability!;
    expect(capability.steps.map((step) => step.op)).toEqual([
      'click',
      'fill',
      'press',
      'click',
      'fill',
      'press',
      'read',
    ]);
    for (const memberId of ['M-1002', 'M-1005']) {
      const page = await signedInPage(browser, fixture);
      try {
        const replayed = await replayCapability(capability, { memberId }, { page, evidenceDir: home.home });
        expect(replayed.outcome).toBe('found');
        expect(replayed.outputs.currency).toBe(members.get(memberId)!.accounts[0]!.currency);
      } finally {
        await page.context().close();
      }
    }
  }, 180_000);
});
