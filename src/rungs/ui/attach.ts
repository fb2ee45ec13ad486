import type { Browser } from 'playwright-core';
import { LiftError } from '../../contract/errors.js';
import { liftContextOptions } from './browser.js';
import type { LeasedPage } from './page-pool.js';
import { hostAllowed, type UiPolicy } from './policy.js';
import { markPersonsBrowser } from './request-guard.js';

/** How long a browser's debugging address has to answer before the session says it cannot. */
const CONNECT_TIMEOUT_MS = 10_000;

/** A debugging address Lift can connect to: http(s) (resolved again on every connection) or ws(s). */
export function checkEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new LiftError('BAD_INPUT', `'${endpoint}' is not a browser's debugging address.`, {
      hint: 'Give the address the browser was started with, e.g. --browser-url http://127.0.0.1:9222 for chromium --remote-debugging-port=9222.',
    });
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol))
    throw new LiftError(
      'BAD_INPUT',
      `A browser's debugging address is http(s) or ws(s), not ${url.protocol}`,
      {
        hint: 'e.g. --browser-url http://127.0.0.1:9222, or the ws:// address the browser printed.',
      },
    );
  return url.href;
}

/**
 * A page of Lift's own in a browser a person started, signed in as that person: the
 * person's cookies for the policy's hosts are copied into a new context of that browser,
 * where the same request guard and policy apply as in Lift's own browser. The person's
 * contexts and tabs are only read (their cookies), never navigated, routed or closed; release
 * closes Lift's context and disconnects, leaving the browser running. Nothing is saved to
 * Lift's profiles: the sign-in stays the person's.
 *
 * An http address (`http://127.0.0.1:9222`) is resolved to the browser's current socket on
 * every connection, so it outlives the browser's restarts; a ws:// address names one run.
 */
export async function attachedPage(
  endpoint: string,
  policy: UiPolicy,
  viewport?: { width: number; height: number },
): Promise<LeasedPage> {
  const address = checkEndpoint(endpoint);
  const { chromium } = await import('playwright-core');
  let browser: Browser;
  try {
    browser = await chromium.connectOverCDP(address, { timeout: CONNECT_TIMEOUT_MS });
  } catch {
    throw new LiftError('UPSTREAM_ERROR', `No browser answered at ${address}.`, {
      hint: 'Start Chromium or Chrome with --remote-debugging-port=9222 (and a --user-data-dir of its own), then give --browser-url http://127.0.0.1:9222; a ws:// address changes whenever the browser restarts.',
    });
  }
  markPersonsBrowser(browser);
  try {
    const person = browser.contexts()[0];
    const cookies = person ? await person.cookies() : [];
    const context = await browser.newContext(liftContextOptions(viewport));
    const carried = cookies.filter((cookie) => hostAllowed(policy, cookie.domain));
    if (carried.length > 0) await context.addCookies(carried);
    const page = await context.newPage();
    const release = async () => {
      await context.close().catch(() => undefined);
      // A browser Lift connected to is disconnected, not closed: it is the person's.
      await browser.close().catch(() => undefined);
    };
    return { page, save: async () => undefined, release };
  } catch (error) {
    await browser.close().catch(() => undefined);
    throw error;
  }
}
