import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { pageFingerprint } from '../../src/capability/fingerprint.js';
import { LiftError } from '../../src/contract/errors.js';
import { loadMembers } from '../../src/fixtures/backoffice/index.js';
import { replayCapability } from '../../src/replay/engine.js';
import {
  launchChromium,
  memberLookupCapability,
  memberLookupDefinition,
  signedInPage,
  startBackoffice,
  tempHome,
} from './helpers.js';

// The ways real applications tripped replay, on the back-office fixture (scenarios.ts).
let fixture: Awaited<ReturnType<typeof startBackoffice>>;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const home = tempHome();
const members = new Map(loadMembers().map((member) => [member.id, member]));
const workspace = ['Workspace'];

beforeAll(async () => {
  fixture = await startBackoffice();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
  home.cleanup();
});

/** A capability made on the scenario's start page, then replayed in a fresh context of the same scenario. */
async function replayIn(
  scenario: string,
  make: (page: import('playwright-core').Page) => Promise<Capability>,
  inputs: Record<string, string>,
  stepTimeoutMs = 3_000,
) {
  const making = await signedInPage(browser, fixture, `?scenario=${scenario}`);
  const capability = await make(making);
  await making.context().close();
  const page = await signedInPage(browser, fixture, `?scenario=${scenario}`);
  try {
    const result = await replayCapability(capability, inputs, {
      page,
      evidenceDir: home.home,
      stepTimeoutMs,
      effectClass: 'read',
    });
    return { result, error: undefined };
  } catch (error) {
    if (!(error instanceof LiftError)) throw error;
    return { result: undefined, error };
  } finally {
    await page.context().close();
  }
}

const lookup = (page: import('playwright-core').Page) => memberLookupCapability(page, fixture.origin);

describe('page classification by what the capability expects, not by words', () => {
  it('answers a member page whose headings carry error and sign-in words', async () => {
    const { result, error } = await replayIn('error_words', lookup, { memberId: 'M-1002' });
    expect(error).toBeUndefined();
    expect(result?.outcome).toBe('found');
    expect(result?.outputs.currency).toBe(members.get('M-1002')!.accounts[0]!.currency);
  });

  it('answers a member page with a password field that is no sign-in', async () => {
    const { result, error } = await replayIn('password_field', lookup, { memberId: 'M-1003' });
    expect(error).toBeUndefined();
    expect(result?.outcome).toBe('found');
  });

  it('does not answer not_found from a start page that says "does not exist"', async () => {
    const found = await replayIn('fresh_start', lookup, { memberId: 'M-1004' });
    expect(found.error).toBeUndefined();
    expect(found.result?.outcome).toBe('found');
    const missing = await replayIn('fresh_start', lookup, { memberId: 'M-9999' });
    expect(missing.result?.outcome).toBe('not_found');
    expect(missing.result?.stepsRun).toBeGreaterThan(0);
  });
});

describe('fingerprints of structure, never data', () => {
  it('replays on a start page whose rows are added, removed and reordered between loads', async () => {
    for (const memberId of ['M-1001', 'M-1005', 'M-1006']) {
      const { result, error } = await replayIn('changing_data', lookup, { memberId });
      expect(error).toBeUndefined();
      expect(result?.outcome).toBe('found');
    }
  });
});

/** The status of a ticket in the ticket list, which pages (paged_table: two a page). */
async function ticketStatusCapability(page: import('playwright-core').Page): Promise<Capability> {
  await page.goto(`${fixture.origin}/app?view=/app/tickets`);
  const { fingerprint } = await pageFingerprint(page);
  const row = {
    frame: workspace,
    locator: { by: 'cell' as const, row: '{{input.ticketId}}', column: 'Ticket' },
  };
  return {
    ...memberLookupDefinition(fixture.origin, fingerprint),
    name: 'ticket_status_read',
    intent: 'Read the status of a ticket in the ticket list',
    inputs: [{ name: 'ticketId', type: 'string' }],
    outputs: [{ name: 'status', type: 'string' }],
    preconditions: { origin: fixture.origin, path: '/app?view=/app/tickets', fingerprint },
    steps: [
      {
        version: 1,
        op: 'read',
        target: { frame: workspace, locator: { by: 'cell', row: '{{input.ticketId}}', column: 'Status' } },
        output: 'status',
        expect: { kind: 'none' },
      },
    ],
    paging: {
      next: { frame: workspace, locator: { by: 'role', role: 'link', name: 'Next page' } },
      pages: 10,
    },
    checkpoint: { target: row, equals: { input: 'ticketId' }, match: 'exact' },
  };
}

describe('rows on other pages', () => {
  it('pages through the list before it answers, and answers not_found only after the last page', async () => {
    const last = await replayIn('paged_table', ticketStatusCapability, { ticketId: 'T-000105' });
    expect(last.error).toBeUndefined();
    expect(last.result?.outcome).toBe('found');
    expect(last.result?.outputs.status).toBe(fixture.tickets().find((t) => t.id === 'T-000105')!.status);
    const missing = await replayIn('paged_table', ticketStatusCapability, { ticketId: 'T-999999' });
    expect(missing.error).toBeUndefined();
    expect(missing.result?.outcome).toBe('not_found');
  });
});

/** Making a service request: a category select that re-renders the rest of the form, then a submit. */
async function requestCreateCapability(page: import('playwright-core').Page): Promise<Capability> {
  await page.goto(`${fixture.origin}/app?view=/app/requests/new`);
  const { fingerprint } = await pageFingerprint(page);
  const field = (label: string) => ({ frame: workspace, locator: { by: 'label' as const, label } });
  const select = (name: string) => ({
    frame: workspace,
    locator: { by: 'role' as const, role: 'combobox', name },
  });
  const cell = (column: string) => ({
    frame: workspace,
    locator: { by: 'cell' as const, row: '{{input.subject}}', column },
  });
  return {
    ...memberLookupDefinition(fixture.origin, fingerprint),
    name: 'service_request_create',
    intent: 'Make a service request and return its id',
    inputs: [
      { name: 'category', type: 'string' },
      { name: 'subject', type: 'string' },
      { name: 'priority', type: 'string' },
    ],
    outputs: [{ name: 'requestId', type: 'string' }],
    preconditions: { origin: fixture.origin, path: '/app?view=/app/requests/new', fingerprint },
    steps: [
      {
        version: 1,
        op: 'select',
        target: select('Category'),
        value: { input: 'category' },
        expect: { kind: 'none' },
      },
      {
        version: 1,
        op: 'fill',
        target: field('Subject'),
        value: { input: 'subject' },
        expect: { kind: 'value', target: field('Subject'), equals: { input: 'subject' } },
      },
      {
        version: 1,
        op: 'select',
        target: select('Priority'),
        value: { input: 'priority' },
        expect: { kind: 'none' },
      },
      {
        version: 1,
        op: 'click',
        target: { frame: workspace, locator: { by: 'role', role: 'button', name: 'Create request' } },
        expect: { kind: 'visible', target: cell('Subject') },
      },
      { version: 1, op: 'read', target: cell('Request'), output: 'requestId', expect: { kind: 'none' } },
    ],
    outcomes: ['found'],
    checkpoint: {
      target: cell('Subject'),
      equals: { input: 'subject' },
      match: 'exact',
      values: [
        { target: cell('Category'), equals: { input: 'category' }, match: 'exact' },
        { target: cell('Priority'), equals: { input: 'priority' }, match: 'exact' },
      ],
    },
  };
}

describe('no false success', () => {
  it('waits for the form a select re-renders, and writes every value it was given', async () => {
    const inputs = [
      { category: 'Access', subject: 'Badge reader at door 2', priority: 'High' },
      { category: 'Other', subject: 'Coffee machine', priority: 'Low' },
    ];
    for (const input of inputs) {
      const { result, error } = await replayIn('normal', requestCreateCapability, input);
      expect(error).toBeUndefined();
      const made = fixture.serviceRequests().find((request) => request.subject === input.subject);
      expect(made).toMatchObject(input);
      expect(result?.outputs.requestId).toBe(made?.id);
      expect(result?.checkpoint?.passed).toBe(true);
    }
  });
});

describe('business outcomes', () => {
  it('answers not_found at once for a row a shown, unpaged list does not have', async () => {
    const unpaged = async (page: import('playwright-core').Page) => {
      const { paging: _paging, ...capability } = await ticketStatusCapability(page);
      return capability;
    };
    // Steps may wait 40 s here: an answer that came from a step's timeout would take at least that
    // long, one that came from the list itself comes as soon as the list is shown (a behaviour,
    // not a speed: the margin holds on a machine under any load).
    const stepTimeoutMs = 40_000;
    const missing = await replayIn('normal', unpaged, { ticketId: 'T-999999' }, stepTimeoutMs);
    expect(missing.error).toBeUndefined();
    expect(missing.result?.outcome).toBe('not_found');
    expect(missing.result?.durationMs).toBeLessThan(stepTimeoutMs);
  });
});
