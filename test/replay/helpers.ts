import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { memberLookupPolicy, memberLookupTask } from '../../src/apps/backoffice/member-lookup-script.js';
import type { Capability } from '../../src/capability/capability.js';
import { pageFingerprint } from '../../src/capability/fingerprint.js';
import { CapabilityStore } from '../../src/capability/store.js';
import { LiftError } from '../../src/contract/errors.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { type Script, ScriptedExplorer } from '../../src/discover/explorers/scripted.js';
import { runDiscovery } from '../../src/discover/run.js';
import { type BackofficeServer, loadMembers, startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { replayCapability } from '../../src/replay/engine.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../src/rungs/ui/browser.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { passwordFormSignIn } from '../../src/rungs/ui/sign-in.js';
import type { Store } from '../../src/store/store.js';
import { tempDir } from '../support/temp.js';

export { CHROMIUM_ARGS };

/**
 * A capability a test writes by hand: what it replays (steps, checkpoint, outcomes) is the
 * test's own; the fields that only record where a capability came from are filled here.
 */
export function handWrittenCapability(
  parts: Omit<Capability, 'schemaVersion' | 'dialogs' | 'provenance'> & Partial<Pick<Capability, 'dialogs'>>,
): Capability {
  return {
    schemaVersion: 1,
    dialogs: [],
    provenance: {
      explorer: 'scripted',
      runId: 'run_test',
      createdAt: '2026-12-03T10:00:00.000Z',
      liftVersion: LIFT_VERSION,
    },
    ...parts,
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Signs a fresh context in through the fixture's own form, as an operator would. */
export async function signedInPage(
  browser: Browser,
  fixture: BackofficeServer,
  query = '',
  options: { password?: string; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  const context: BrowserContext = await browser.newContext(
    options.viewport ? { viewport: options.viewport } : {},
  );
  const page = await context.newPage();
  await page.goto(`${fixture.url}/login${query}`);
  await page.getByLabel('User').fill(fixture.user);
  await page.getByLabel('Password').fill(options.password ?? 'backoffice-demo');
  await page.getByRole('button').click();
  await page.waitForURL(/\/app/);
  return page;
}

export function tempHome(): { home: string; cleanup: () => void } {
  const { path, remove } = tempDir('lift-replay-');
  return { home: path, cleanup: remove };
}

/** What a file's member lookup tests replay on: the back office, a browser, the lookup made on it, a home. */
export interface MemberLookupBed {
  fixture: BackofficeServer;
  browser: Browser;
  capability: Capability;
  /** Evidence folder of the file's replays. */
  home: string;
}

/**
 * The back office and a browser for the whole file, with the member lookup made on a signed-in
 * page of it (that page's context closed again), set up before the file's tests and closed after.
 */
export function memberLookupBed(): MemberLookupBed {
  const home = tempHome();
  const bed = { home: home.home } as MemberLookupBed;
  beforeAll(async () => {
    bed.fixture = await startBackoffice();
    bed.browser = await launchChromium();
    const page = await signedInPage(bed.browser, bed.fixture);
    bed.capability = await memberLookupCapability(page, bed.fixture.origin);
    await page.context().close();
  });
  afterAll(async () => {
    await bed.browser?.close();
    await bed.fixture?.close();
    home.cleanup();
  });
  return bed;
}

/** A member's savings account as the back office's data holds it: what a lookup must answer. */
export function savingsOf(memberId: string): { balance: number; currency: string } {
  const account = loadMembers()
    .find((member) => member.id === memberId)
    ?.accounts.find((each) => each.type === 'Savings');
  if (!account) throw new Error(`the back office's data has no savings account for ${memberId}`);
  return { balance: Number(account.balance), currency: account.currency };
}

const workspace = ['Workspace'];

/** The member lookup as discovery compiles it; written out by hand for replay tests. */
export async function memberLookupCapability(page: Page, origin: string): Promise<Capability> {
  await page.goto(`${origin}/app`);
  const { fingerprint } = await pageFingerprint(page);
  return memberLookupDefinition(origin, fingerprint);
}

/** The member lookup for a start page whose fingerprint the caller knows (or makes up, when nothing replays). */
export function memberLookupDefinition(origin: string, fingerprint: string): Capability {
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
      liftVersion: LIFT_VERSION,
    },
  };
}

export { startBackoffice };

/**
 * Adding a note to a member (a visible write) as discovery compiles it: look the member up,
 * type the note, send it, then read the member's status back. `submit` picks how both forms
 * are sent: clicks on Look up and Add note, or Enter in the fields (the note field is a
 * one-line input in the note_submit_* scenarios).
 */
export async function memberNoteCapability(
  page: Page,
  origin: string,
  submit: 'click' | 'enter' = 'click',
): Promise<Capability> {
  await page.goto(`${origin}/app`);
  return memberNoteDefinition(origin, (await pageFingerprint(page)).fingerprint, submit);
}

export function memberNoteDefinition(
  origin: string,
  fingerprint: string,
  submit: 'click' | 'enter' = 'click',
): Capability {
  const lookup = memberLookupDefinition(origin, fingerprint);
  const [fillId, clickLookUp] = lookup.steps as [Capability['steps'][number], Capability['steps'][number]];
  const idField = { frame: workspace, locator: { by: 'label' as const, label: 'Member ID' } };
  const lookedUp = clickLookUp.expect;
  const note = { frame: workspace, locator: { by: 'label' as const, label: 'Note' } };
  const emptied = { kind: 'value' as const, target: note, equals: { literal: '' } };
  return {
    ...lookup,
    name: 'member_note_add',
    intent: 'Add a note to a member and return the member status',
    inputs: [
      { name: 'memberId', type: 'string' },
      { name: 'note', type: 'string' },
    ],
    outputs: [{ name: 'status', type: 'string' }],
    steps: [
      fillId,
      submit === 'click'
        ? clickLookUp
        : { version: 1, op: 'press', target: idField, key: 'Enter', expect: lookedUp },
      {
        version: 1,
        op: 'fill',
        target: note,
        value: { input: 'note' },
        expect: { kind: 'value', target: note, equals: { input: 'note' } },
      },
      submit === 'click'
        ? {
            version: 1,
            op: 'click',
            target: { frame: workspace, locator: { by: 'role', role: 'button', name: 'Add note' } },
            expect: emptied,
          }
        : { version: 1, op: 'press', target: note, key: 'Enter', expect: emptied },
      {
        version: 1,
        op: 'read',
        target: { frame: workspace, locator: { by: 'cell', row: '{{input.memberId}}', column: 'Status' } },
        output: 'status',
        expect: { kind: 'none' },
      },
    ],
  };
}

/** A capability with no step that can change state: it reads the member page its start URL opens. */
export async function memberStatusCapability(page: Page, origin: string): Promise<Capability> {
  await page.goto(`${origin}/app?view=/app/members/M-1001`);
  const { fingerprint } = await pageFingerprint(page);
  const lookup = memberLookupDefinition(origin, fingerprint);
  return {
    ...lookup,
    name: 'member_status_read',
    intent: 'Read the status of the member the start page shows',
    outputs: [{ name: 'status', type: 'string' }],
    preconditions: { origin, path: '/app?view=/app/members/M-1001', fingerprint },
    steps: [
      {
        version: 1,
        op: 'read',
        target: { frame: workspace, locator: { by: 'cell', row: '{{input.memberId}}', column: 'Status' } },
        output: 'status',
        expect: { kind: 'none' },
      },
    ],
  };
}

/** The member lookup discovered on the fixture by a scripted explorer, in a fresh context. */
export async function discoverMemberLookup(
  browser: Browser,
  fixture: BackofficeServer,
  store: Store,
  script: Script,
) {
  const context = await browser.newContext();
  try {
    const explorer = new ScriptedExplorer(script);
    const result = await runDiscovery({
      store,
      capabilities: new CapabilityStore(store.capabilities),
      page: await context.newPage(),
      policy: parsePolicy(memberLookupPolicy(fixture.origin)),
      task: memberLookupTask(fixture.origin, 'M-1001'),
      explorer,
      hidden: ['Balance'],
      signIn: { recipe: passwordFormSignIn(fixture.user, { literal: 'backoffice-demo' }) },
      liftVersion: LIFT_VERSION,
    });
    return { result, replies: explorer.replies };
  } finally {
    await context.close();
  }
}

/**
 * One replay of a member lookup on a freshly signed-in page (`query` picks the scenario): its
 * result or its LiftError, and how long it took.
 */
export async function replayLookup(
  browser: Browser,
  fixture: BackofficeServer,
  capability: Capability,
  memberId: string,
  options: { evidenceDir: string; query?: string },
) {
  const page = await signedInPage(browser, fixture, options.query ?? '');
  const started = performance.now();
  try {
    const result = await replayCapability(
      capability,
      { memberId },
      { page, evidenceDir: options.evidenceDir, stepTimeoutMs: 3_000, effectClass: 'read' },
    );
    return { result, error: undefined, ms: performance.now() - started };
  } catch (error) {
    if (!(error instanceof LiftError)) throw error;
    return { result: undefined, error, ms: performance.now() - started };
  } finally {
    await page.context().close();
  }
}
