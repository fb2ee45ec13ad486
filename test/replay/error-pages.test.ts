import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_LOOKUP_SCRIPT } from '../../src/apps/backoffice/member-lookup-script.js';
import type { Capability } from '../../src/capability/capability.js';
import { errorPageOf, frameErrorPage } from '../../src/capability/fingerprint.js';
import type { Script } from '../../src/discover/explorers/scripted.js';
import { openStore, type Store } from '../../src/store/store.js';
import {
  discoverMemberLookup,
  launchChromium,
  replayLookup,
  signedInPage,
  startBackoffice,
  tempHome,
} from './helpers.js';

// An application's error page is known by what discovery saw of it, not by its words nor only
// by its HTTP status: the back office's statement view fails (HTTP 500) in every scenario, and
// its soft_error scenario answers the member page with that same error page and status 200.
let fixture: Awaited<ReturnType<typeof startBackoffice>>;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let store: Store;
let capability: Capability;
let discoveryReplies: unknown[];
const home = tempHome();
const workspace = ['Workspace'];

/** The member lookup, after a look at the faulty statement view (the explorer's detour). */
const WITH_DETOUR: Script = {
  explorer: 'scripted',
  calls: [
    {
      tool: 'act',
      args: { actions: [{ op: 'navigate', url: '/app/members/M-1001/statement', frame: workspace }] },
    },
    ...MEMBER_LOOKUP_SCRIPT.calls,
  ],
};

beforeAll(async () => {
  fixture = await startBackoffice();
  browser = await launchChromium();
  store = openStore(home.home);
  const { result, replies } = await discoverMemberLookup(browser, fixture, store, WITH_DETOUR);
  discoveryReplies = replies;
  if (!result.capability) throw new Error(`discovery did not complete: ${JSON.stringify(replies)}`);
  capability = result.capability;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
  await store?.close();
  home.cleanup();
});

const replay = (subject: Capability, memberId: string, query = '') =>
  replayLookup(browser, fixture, subject, memberId, { evidenceDir: home.home, query });

describe("the application's error pages, learned in discovery", () => {
  it('keeps the skeleton of the error page the explorer met, and leaves the detour out', async () => {
    // The detour's answer: the page failed, and the action is not kept.
    expect(JSON.stringify(discoveryReplies[0])).toContain('APP_ERROR');
    expect(capability.steps.some((step) => step.op === 'navigate')).toBe(false);
    // The hash is the error page's own skeleton, wherever it is shown.
    const page = await signedInPage(browser, fixture);
    try {
      await page.goto(`${fixture.origin}/app/members/M-1001/statement`);
      expect(capability.errorPages).toEqual([await frameErrorPage(page.mainFrame())]);
    } finally {
      await page.context().close();
    }
  });

  it('answers APP_ERROR for that page served with HTTP 200, which without it is only a changed screen', async () => {
    const soft = await replay(capability, 'M-1002', '?scenario=soft_error');
    expect(soft.result).toBeUndefined();
    expect(soft.error?.code).toBe('APP_ERROR');
    expect(soft.error?.message).toContain('the error page discovery saw');

    const { errorPages: _errorPages, ...unlearned } = capability;
    const guessed = await replay(unlearned, 'M-1002', '?scenario=soft_error');
    expect(guessed.error?.code).toBe('SURFACE_CHANGED');
  }, 60_000);

  it('still answers a record whose own words say "500" and "Cannot log in", and a normal one', async () => {
    const worded = await replay(capability, 'M-1003', '?scenario=error_words');
    expect(worded.error).toBeUndefined();
    expect(worded.result?.outcome).toBe('found');
    const normal = await replay(capability, 'M-1004');
    expect(normal.result?.outcome).toBe('found');
    expect(normal.result?.outputs.currency).toBeTruthy();
  }, 60_000);

  it('keeps no skeleton that names nothing: every blank document would share it', () => {
    expect(errorPageOf([])).toBeUndefined();
    expect(errorPageOf(['navigation', 'form'])).toBeUndefined();
    expect(errorPageOf(['heading "Application error"'])).toMatch(/^[0-9a-f]{64}$/);
  });
});
