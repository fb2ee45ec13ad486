/**
 * The back office's member lookup replayed on a renderer slowed 50 times (CDP's CPU
 * throttling), as three worker hosts on two cores starve it: the load run once saw a lookup
 * take 39 s and answer SURFACE_CHANGED with the heading it waited for on the page, and this
 * page, before the fix, answered SURFACE_CHANGED, NO_CHANGE or CHECK_FAILED in about half of
 * its replays. Each answer must be true: the member's own savings, or TIMEOUT. It runs here,
 * alone, because each replay takes some 40 s of a core.
 */
import { expect, it } from 'vitest';
import { replayCapability } from '../../src/replay/engine.js';
import { memberLookupBed, savingsOf, signedInPage } from '../replay/helpers.js';

const SLOWER = 50;
const MEMBERS = ['M-1003', 'M-1005'];

const bed = memberLookupBed();

it(`answers each member lookup truly on a renderer ${SLOWER} times slower: the savings, or TIMEOUT`, async () => {
  const answers: unknown[] = [];
  for (const memberId of MEMBERS) {
    const page = await signedInPage(bed.browser, bed.fixture);
    const session = await page.context().newCDPSession(page);
    await session.send('Emulation.setCPUThrottlingRate', { rate: SLOWER });
    const started = performance.now();
    try {
      const answer = await replayCapability(
        bed.capability,
        { memberId },
        { page, evidenceDir: bed.home, stepTimeoutMs: 5_000 },
      ).catch((error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }));
      const ms = Math.round(performance.now() - started);
      console.log(`starved replay of ${memberId}: ${ms} ms, ${JSON.stringify(answer)}`);
      answers.push(answer);
      if ('code' in answer) {
        expect(answer.code, answer.message).toBe('TIMEOUT');
        continue;
      }
      const savings = savingsOf(memberId);
      expect(answer).toMatchObject({
        outcome: 'found',
        outputs: { savingsBalance: savings.balance, currency: savings.currency },
        checkpoint: { passed: true },
      });
    } finally {
      await page.context().close();
    }
  }
  expect(answers).toHaveLength(MEMBERS.length);
});
