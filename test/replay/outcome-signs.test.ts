import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_LOOKUP_SCRIPT } from '../../src/apps/backoffice/member-lookup-script.js';
import type { Capability } from '../../src/capability/capability.js';
import type { Script } from '../../src/discover/explorers/scripted.js';
import { openStore, type Store } from '../../src/store/store.js';
import { discoverMemberLookup, launchChromium, replayLookup, startBackoffice, tempHome } from './helpers.js';

// A directory that answers a missing member in words no list of "not found" phrases holds:
// replay can only know that answer from what discovery saw for an example input.
let fixture: Awaited<ReturnType<typeof startBackoffice>>;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let store: Store;
const home = tempHome();

beforeAll(async () => {
  fixture = await startBackoffice({ scenario: 'plain_not_found' });
  browser = await launchChromium();
  store = openStore(home.home);
});
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
  await store?.close();
  home.cleanup();
});

/** The member lookup script, its complete given these outcome examples. */
function withExamples(examples: unknown[]): Script {
  const calls = MEMBER_LOOKUP_SCRIPT.calls;
  const complete = calls.at(-1)!;
  return {
    explorer: 'scripted',
    calls: [...calls.slice(0, -1), { ...complete, args: { ...(complete.args as object), examples } }],
  };
}

const discover = (script: Script) => discoverMemberLookup(browser, fixture, store, script);
const replay = (capability: Capability, memberId: string) =>
  replayLookup(browser, fixture, capability, memberId, { evidenceDir: home.home });

describe('outcomes learned in discovery from an example input', () => {
  it('learns what not-found looks like and answers it from that evidence, not from words', async () => {
    const { result, replies } = await discover(
      withExamples([{ outcome: 'not_found', inputs: { memberId: 'M-9999' } }]),
    );
    expect(result.status.outcome, JSON.stringify(replies.at(-1))).toBe('completed');
    const capability = result.capability!;
    // The answer names the input, in the frame the capability works in, after the lookup.
    expect(capability.signs).toEqual([
      {
        outcome: 'not_found',
        after: 4,
        shows: [
          {
            frame: ['Workspace'],
            locator: { by: 'text', text: 'There is no {{input.memberId}} in the directory.' },
          },
        ],
      },
    ]);
    const missing = await replay(capability, 'M-4040');
    expect(missing.error).toBeUndefined();
    expect(missing.result?.outcome).toBe('not_found');
    expect(missing.result?.stepsRun).toBe(4);
    const found = await replay(capability, 'M-1002');
    expect(found.result?.outcome).toBe('found');
    expect(found.result?.outputs.currency).toBeTruthy();

    // Without the learned sign the same page is no answer at all: the words decide nothing.
    const { signs: _signs, ...unlearned } = capability;
    const guessed = await replay(unlearned, 'M-4040');
    expect(guessed.result).toBeUndefined();
    expect(guessed.error?.code).toBe('SURFACE_CHANGED');
  }, 180_000);

  it('refuses an example that the application answers like a found record', async () => {
    const { result, replies } = await discover(
      withExamples([{ outcome: 'not_found', inputs: { memberId: 'M-1003' } }]),
    );
    expect(result.status.outcome).not.toBe('completed');
    const refusal = replies.at(-1)?.reply as { ok: boolean; error?: string; message?: string };
    expect(refusal.ok).toBe(false);
    expect(refusal.error).toBe('CHECK_FAILED');
    expect(refusal.message).toContain('ran every step like a found record');
  }, 120_000);
});
