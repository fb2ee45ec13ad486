import { statSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LiftError } from '../../src/contract/errors.js';
import { replayCapability } from '../../src/replay/engine.js';
import { memberLookupBed, savingsOf, signedInPage } from './helpers.js';

const bed = memberLookupBed();

async function replayIn(query: string, memberId: string) {
  const page = await signedInPage(bed.browser, bed.fixture, query);
  const events: Array<{ type: string }> = [];
  try {
    const result = await replayCapability(
      bed.capability,
      { memberId },
      {
        page,
        evidenceDir: bed.home,
        emit: (event) => events.push(event),
        stepTimeoutMs: 3_000,
      },
    );
    return { result, events, error: undefined as LiftError | undefined };
  } catch (error) {
    if (!(error instanceof LiftError)) throw error;
    return { result: undefined, events, error };
  } finally {
    await page.context().close();
  }
}

function posts(memberId: string, action: string) {
  return bed.fixture
    .requests()
    .filter((entry) => entry.method === 'POST' && entry.path.includes(`${memberId}/${action}`));
}

describe('replay on the back-office fixture', () => {
  it('returns the savings balance and currency of new members on the normal layout', async () => {
    for (const id of ['M-1002', 'M-1004']) {
      const { result } = await replayIn('', id);
      expect(result?.outcome).toBe('found');
      expect(result?.outputs).toEqual({
        savingsBalance: savingsOf(id).balance,
        currency: savingsOf(id).currency,
      });
      expect(result?.checkpoint?.passed).toBe(true);
    }
  });

  it('resolves the same revision on the reversed layout', async () => {
    const { result } = await replayIn('?layout=reversed', 'M-1005');
    expect(result?.outputs).toEqual({
      savingsBalance: savingsOf('M-1005').balance,
      currency: savingsOf('M-1005').currency,
    });
  });

  it('answers not_found for a member that does not exist', async () => {
    const { result, error } = await replayIn('', 'M-9999');
    expect(error).toBeUndefined();
    expect(result?.outcome).toBe('not_found');
    expect(result?.outputs).toEqual({});
  });

  it('reloads once on a transient 503 and still answers', async () => {
    const { result, events } = await replayIn('?scenario=transient_503', 'M-1003');
    expect(result?.outputs.currency).toBe(savingsOf('M-1003').currency);
    expect(result?.reloads).toBe(1);
    expect(events.some((event) => event.type === 'replay-page-reloaded')).toBe(true);
  });

  it('stops on an application error with a masked screenshot', async () => {
    const { error } = await replayIn('?scenario=app_error', 'M-1001');
    expect(error?.code).toBe('APP_ERROR');
    expect(String(error?.details?.screenshot)).toMatch(/\.png$/);
    expect(statSync(String(error?.details?.screenshot)).mode & 0o777).toBe(0o600);
  });

  it('stops on an undeclared dialog instead of clicking through it', async () => {
    const { error } = await replayIn('?scenario=dialog', 'M-1001');
    expect(error?.code).toBe('UNEXPECTED_STATE');
    expect(error?.message).toMatch(/dialog/);
  });

  it('returns AUTH_REQUIRED when the session expires in an unattended run', async () => {
    const page = await signedInPage(bed.browser, bed.fixture);
    bed.fixture.expireSessions();
    try {
      await expect(
        replayCapability(
          bed.capability,
          { memberId: 'M-1001' },
          { page, evidenceDir: bed.home, stepTimeoutMs: 3_000 },
        ),
      ).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
    } finally {
      await page.context().close();
    }
  });

  /**
   * Replays M-1004's lookup on a page whose session expired; `person` is what the person does
   * on the handed-over page before pressing Done (its sign-in form is shown).
   */
  async function replayAfterHandoff(page: Page, person: () => Promise<void>) {
    bed.fixture.expireSessions();
    const result = await replayCapability(
      bed.capability,
      { memberId: 'M-1004' },
      { page, evidenceDir: bed.home, stepTimeoutMs: 3_000, effectClass: 'read', handoff: person },
    );
    expect(result.handoffs).toBe(1);
    expect(result.outputs.currency).toBe(savingsOf('M-1004').currency);
  }

  it('hands an expired session to a person when attended, then answers', async () => {
    const page = await signedInPage(bed.browser, bed.fixture);
    try {
      await replayAfterHandoff(page, async () => {
        await page.getByLabel('User').fill(bed.fixture.user);
        await page.getByLabel('Password').fill('backoffice-demo');
        await page.getByRole('button').click();
        await page.waitForURL(/\/app/);
      });
    } finally {
      await page.context().close();
    }
  });

  it('keeps a sign-in the person sent just before pressing Done, while its post is still on the way', async () => {
    const page = await signedInPage(bed.browser, bed.fixture);
    // The application is slow to answer the sign-in: Done comes before the session cookie does.
    await page.route('**/login*', async (route, request) => {
      if (request.method() === 'POST') await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.fallback();
    });
    try {
      await replayAfterHandoff(page, async () => {
        await page.getByLabel('User').fill(bed.fixture.user);
        await page.getByLabel('Password').fill('backoffice-demo');
        const posted = page.waitForRequest((request) => request.method() === 'POST');
        await page.getByRole('button').click({ noWaitAfter: true });
        await posted;
      });
    } finally {
      await page.context().close();
    }
  });

  it('refuses a relabelled screen at the start page, and names the missing target when layout-tolerant', async () => {
    const first = await replayIn('?scenario=relabelled', 'M-1001');
    expect(first.error?.code).toBe('SURFACE_CHANGED');
    expect(first.error?.outcome).toBe('not_started');
    const page = await signedInPage(bed.browser, bed.fixture, '?scenario=relabelled');
    try {
      const error = await replayCapability(
        bed.capability,
        { memberId: 'M-1001' },
        {
          page,
          evidenceDir: bed.home,
          layoutTolerant: true,
          stepTimeoutMs: 2_000,
        },
      ).catch((failure) => failure);
      expect(error.code).toBe('SURFACE_CHANGED');
      expect(String(error.details.expected)).toMatch(/Look up/);
      expect(error.details.offered).toContain('button "Search"');
      expect(String(error.details.screenshot)).toMatch(/\.png$/);
    } finally {
      await page.context().close();
    }
  });

  it('never presses Transfer and never submits twice', async () => {
    bed.fixture.clearRequests();
    await replayIn('?scenario=slow', 'M-1002');
    expect(bed.fixture.transfers()).toEqual([]);
    const lookups = bed.fixture.requests().filter((entry) => entry.path.startsWith('/app/members/lookup'));
    expect(lookups).toHaveLength(1);
    expect(posts('M-1002', 'transfer')).toHaveLength(0);
  });

  it('refuses a pinned revision the content does not hash to, before touching the page', async () => {
    const page = await signedInPage(bed.browser, bed.fixture);
    bed.fixture.clearRequests();
    try {
      await expect(
        replayCapability(
          bed.capability,
          { memberId: 'M-1001' },
          { page, evidenceDir: bed.home, revision: 'a'.repeat(64) },
        ),
      ).rejects.toMatchObject({ code: 'REVISION_MISMATCH' });
      expect(bed.fixture.requests()).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('refuses a start page whose fingerprint differs (SURFACE_CHANGED with a rediscover hint)', async () => {
    const changed = structuredClone(bed.capability);
    changed.preconditions.fingerprint = 'b'.repeat(64);
    const page = await signedInPage(bed.browser, bed.fixture);
    try {
      const failure = await replayCapability(
        changed,
        { memberId: 'M-1001' },
        { page, evidenceDir: bed.home },
      ).catch((error) => error);
      expect(failure.code).toBe('SURFACE_CHANGED');
      expect(failure.hint).toMatch(/Rediscover/);
      const tolerant = await replayCapability(
        changed,
        { memberId: 'M-1001' },
        { page, evidenceDir: bed.home, layoutTolerant: true },
      );
      expect(tolerant.outcome).toBe('found');
    } finally {
      await page.context().close();
    }
  });
});
