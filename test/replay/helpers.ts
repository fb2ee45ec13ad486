import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { Capability } from '../../src/capability/capability.js';
import { pageFingerprint } from '../../src/capability/fingerprint.js';
import { type BackofficeServer, startBackoffice } from '../../src/fixtures/backoffice/index.js';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../src/rungs/ui/browser.js';

export { CHROMIUM_ARGS };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Signs a fresh context in through the fixture's own form, as an operator would. */
export async function signedInPage(browser: Browser, fixture: BackofficeServer, query = ''): Promise<Page> {
  const context: BrowserContext = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${fixture.url}/login${query}`);
  await page.getByLabel('User').fill(fixture.user);
  await page.getByLabel('Password').fill('backoffice-demo');
  await page.getByRole('button').click();
  await page.waitForURL(/\/app/);
  return page;
}

export function tempHome(): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), 'lift-replay-'));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

const workspace = ['Workspace'];

/** The member lookup as discovery compiles it; written out by hand for replay tests. */
export async function memberLookupCapability(page: Page, origin: string): Promise<Capability> {
  await page.goto(`${origin}/app`);
  const { fingerprint } = await pageFingerprint(page);
  return {
    schemaVersion: 1,
    name: 'member_lookup_savings',
    intent: 'Verify a member ID and return the savings balance and currency',
    inputs: [{ name: 'memberId', type: 'string' }],
    outputs: [
      { name: 'savingsBalance', type: 'number' },
      { name: 'currency', type: 'string' },
    ],
    preconditions: { origin, path: '/app', fingerprint },
    steps: [
      {
        version: 1,
        op: 'fill',
        target: { frame: workspace, locator: { by: 'label', label: 'Member ID' } },
        value: { input: 'memberId' },
        expect: {
          kind: 'value',
          target: { frame: workspace, locator: { by: 'label', label: 'Member ID' } },
          equals: { input: 'memberId' },
        },
      },
      {
        version: 1,
        op: 'click',
        target: { frame: workspace, locator: { by: 'role', role: 'button', name: 'Look up' } },
        expect: {
          kind: 'visible',
          target: {
            frame: workspace,
            locator: { by: 'role', role: 'heading', name: 'Member {{input.memberId}}' },
          },
        },
      },
      {
        version: 1,
        op: 'read',
        target: { frame: workspace, locator: { by: 'cell', row: 'Savings', column: 'Balance' } },
        output: 'savingsBalance',
        expect: { kind: 'none' },
      },
      {
        version: 1,
        op: 'read',
        target: { frame: workspace, locator: { by: 'cell', row: 'Savings', column: 'Currency' } },
        output: 'currency',
        expect: { kind: 'none' },
      },
    ],
    outcomes: ['found', 'not_found'],
    dialogs: [],
    checkpoint: {
      target: { frame: workspace, locator: { by: 'cell', row: '{{input.memberId}}', column: 'Member ID' } },
      equals: { input: 'memberId' },
      match: 'exact',
    },
    provenance: {
      explorer: 'scripted',
      runId: 'run_test',
      createdAt: '2026-11-30T12:00:00.000Z',
      liftVersion: '0.1.0',
    },
  };
}

export { startBackoffice };
