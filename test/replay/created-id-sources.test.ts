import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutputSpec, validateCapability } from '../../src/capability/capability.js';
import { pageFingerprint } from '../../src/capability/fingerprint.js';
import { LiftError } from '../../src/contract/errors.js';
import { replayCapability } from '../../src/replay/engine.js';
import {
  launchChromium,
  memberLookupDefinition,
  signedInPage,
  startBackoffice,
  tempHome,
} from './helpers.js';

// A create whose new id is not in the URL it lands on: the fixture's request page says
// "Request R-101 created." in a status line and links to the record ("View request").
let fixture: Awaited<ReturnType<typeof startBackoffice>>;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const home = tempHome();
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

const cell = (column: string) => ({
  frame: workspace,
  locator: { by: 'cell' as const, row: '{{input.subject}}', column },
});

/** The service request create, its one output taken from the page by `from` instead of a read. */
function requestCreate(fingerprint: string, output: OutputSpec): unknown {
  return {
    ...memberLookupDefinition(fixture.origin, fingerprint),
    name: 'service_request_create',
    intent: 'Make a service request and return its id',
    inputs: [{ name: 'subject', type: 'string' }],
    outputs: [output],
    preconditions: { origin: fixture.origin, path: '/app?view=/app/requests/new', fingerprint },
    steps: [
      {
        version: 1,
        op: 'fill',
        target: { frame: workspace, locator: { by: 'label', label: 'Subject' } },
        value: { input: 'subject' },
        expect: { kind: 'none' },
      },
      {
        version: 1,
        op: 'click',
        target: { frame: workspace, locator: { by: 'role', role: 'button', name: 'Create request' } },
        expect: { kind: 'visible', target: cell('Subject') },
      },
    ],
    outcomes: ['found'],
    checkpoint: { target: cell('Subject'), equals: { input: 'subject' }, match: 'exact' },
  };
}

async function startFingerprint(): Promise<string> {
  const page = await signedInPage(browser, fixture);
  try {
    await page.goto(`${fixture.origin}/app?view=/app/requests/new`);
    return (await pageFingerprint(page)).fingerprint;
  } finally {
    await page.context().close();
  }
}

/** Replays the create with a fresh subject; the request the fixture made, and the answer. */
async function create(output: OutputSpec) {
  const checked = validateCapability(requestCreate(await startFingerprint(), output));
  if (!checked.success) throw new Error(checked.issues.join('\n'));
  const subject = `Printer ${Math.random().toString(36).slice(2, 8)}`;
  const page: Page = await signedInPage(browser, fixture);
  try {
    const result = await replayCapability(
      checked.data,
      { subject },
      {
        page,
        evidenceDir: home.home,
        stepTimeoutMs: 3_000,
        effectClass: 'reversible',
      },
    ).catch((error: unknown) => {
      if (error instanceof LiftError) return error;
      throw error;
    });
    const made = fixture.serviceRequests().find((request) => request.subject === subject);
    return { result, made };
  } finally {
    await page.context().close();
  }
}

describe('ids of what a write created', () => {
  it('reads the new id from the status message', async () => {
    const { result, made } = await create({
      name: 'requestId',
      type: 'string',
      from: { message: { pattern: 'Request (R-\\d+) created' } },
    });
    expect(made).toBeDefined();
    expect(result).not.toBeInstanceOf(LiftError);
    expect((result as { outputs: unknown }).outputs).toEqual({ requestId: made!.id });
  });

  it("reads the new record's address, and its id, from the link to it", async () => {
    const whole = await create({
      name: 'requestUrl',
      type: 'string',
      from: { link: { name: 'View request' } },
    });
    expect((whole.result as { outputs: unknown }).outputs).toEqual({
      requestUrl: `${fixture.origin}/app/requests/${whole.made!.id}?request=${whole.made!.id}`,
    });
    const param = await create({
      name: 'requestId',
      type: 'string',
      from: { link: { name: 'View request', param: 'request' } },
    });
    expect((param.result as { outputs: unknown }).outputs).toEqual({ requestId: param.made!.id });
  });

  it('answers CHECK_FAILED, outcome unknown, when the message does not hold the id: the write landed', async () => {
    const sources: OutputSpec[] = [
      { name: 'requestId', type: 'string', from: { message: { pattern: 'Ticket (T-\\d+) created' } } },
      // It matches, but what it captured is no integer: never returned as one.
      { name: 'requestId', type: 'integer', from: { message: { pattern: 'Request R-\\d+ (created)' } } },
    ];
    for (const output of sources) {
      const { result, made } = await create(output);
      expect(made).toBeDefined();
      expect(result).toBeInstanceOf(LiftError);
      expect((result as LiftError).code).toBe('CHECK_FAILED');
      expect((result as LiftError).outcome).toBe('unknown');
      expect((result as LiftError).hint).toContain('the write landed');
    }
  });

  it('answers CHECK_FAILED, outcome unknown, when no link of that name is there', async () => {
    const { result, made } = await create({
      name: 'requestId',
      type: 'string',
      from: { link: { name: 'Edit request', param: 'request' } },
    });
    expect(made).toBeDefined();
    expect((result as LiftError).code).toBe('CHECK_FAILED');
    expect((result as LiftError).outcome).toBe('unknown');
  });

  it('refuses a message pattern without exactly one capture group when the capability is parsed', () => {
    const parse = (pattern: string) =>
      validateCapability(
        requestCreate('a'.repeat(64), { name: 'requestId', type: 'string', from: { message: { pattern } } }),
      );
    for (const pattern of ['Request R-\\d+ created', '(Request) (R-\\d+)', '(R-\\d+']) {
      const checked = parse(pattern);
      expect(checked.success).toBe(false);
      expect(JSON.stringify(checked)).toMatch(/capture groups|cannot be used/);
    }
    expect(parse('(?:Request) (R-\\d+)').success).toBe(true);
  });
});
