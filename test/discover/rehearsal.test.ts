import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { CapabilityStore } from '../../src/capability/store.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { type ScriptCall, ScriptedExplorer } from '../../src/discover/explorers/scripted.js';
import { runDiscovery } from '../../src/discover/run.js';
import type { DiscoveryTask } from '../../src/discover/session.js';
import { replayCapability } from '../../src/replay/engine.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { openStore, type Store } from '../../src/store/store.js';
import { launchChromium, tempHome } from '../replay/helpers.js';
import { startTinyTracker, type TinyTracker } from '../support/tiny-tracker.js';

// Complete proves what it compiled before it exists: a lookup replays whole on a fresh page of
// the same browser profile, a write only reads its result back from a fresh navigation.
let browser: Browser;
let store: Store;
let capabilities: CapabilityStore;
const home = tempHome();

beforeAll(async () => {
  browser = await launchChromium();
  store = openStore(home.home);
  capabilities = new CapabilityStore(store.capabilities);
});
afterAll(async () => {
  await browser?.close();
  await store?.close();
  home.cleanup();
});

const role = (name: string, kind = 'button') => ({ frame: [], locator: { by: 'role', role: kind, name } });
const label = (text: string) => ({ frame: [], locator: { by: 'label', label: text } });

async function discover(
  tracker: TinyTracker,
  task: Omit<DiscoveryTask, 'startUrl'> & { start: string },
  calls: ScriptCall[],
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const explorer = new ScriptedExplorer({ explorer: 'scripted', calls });
  try {
    const { start, ...rest } = task;
    const result = await runDiscovery({
      store,
      capabilities,
      page,
      policy: parsePolicy({
        version: 1,
        origins: [tracker.origin],
        paths: ['/**'],
        clickNames: ['Search', 'Create issue', 'Issue *'],
        budgets: { steps: 30, seconds: 120, rejected: 5 },
      }),
      task: { ...rest, startUrl: `${tracker.origin}${start}` },
      explorer,
      liftVersion: LIFT_VERSION,
    });
    const complete = explorer.replies.findLast((reply) => reply.tool === 'complete')?.reply as Record<
      string,
      unknown
    >;
    if (process.env.LIFT_TEST_REPLIES) console.log(JSON.stringify(explorer.replies, null, 1).slice(0, 6000));
    return { result, complete, replies: explorer.replies };
  } finally {
    await context.close();
  }
}

async function replay(capability: Capability, inputs: Record<string, unknown>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const started = performance.now();
  try {
    const result = await replayCapability(capability, inputs, {
      page,
      evidenceDir: home.home,
      effectClass: capability.steps.some((step) => step.writes) ? 'visible' : 'read',
    });
    return { result, ms: performance.now() - started };
  } catch (error) {
    return {
      error: error as { code: string; message: string; details?: Record<string, unknown> },
      ms: performance.now() - started,
    };
  } finally {
    await context.close();
  }
}

const issueLookup = {
  name: 'issue_title_read',
  intent: 'Read the title of an issue by its number',
  inputs: [{ name: 'number', type: 'integer' as const }],
  outputs: [{ name: 'title', type: 'string' as const }],
  bound: { number: '2' },
  start: '/issues',
};

describe('a lookup is rehearsed whole before it exists', () => {
  let tracker: TinyTracker;
  beforeAll(async () => {
    tracker = await startTinyTracker();
  });
  afterAll(() => tracker?.close());

  it('records the replay on the discovery input and the not_found example, and answers a missing issue quickly', async () => {
    const { result, complete } = await discover(tracker, issueLookup, [
      { tool: 'act', args: { actions: [{ op: 'navigate', url: '/issue?id={{input.number}}' }] } },
      {
        tool: 'act',
        args: {
          actions: [
            { op: 'read', target: { frame: [], locator: { by: 'pair', label: 'Title' } }, as: 'title' },
          ],
        },
      },
      {
        tool: 'complete',
        args: {
          outputs: ['title'],
          checkpoint: {
            target: role('Issue {{input.number}}', 'heading'),
            input: 'number',
            match: 'contains',
          },
          examples: [{ outcome: 'not_found', inputs: { number: '99' } }],
        },
      },
    ]);
    expect(result.status.outcome, JSON.stringify(complete)).toBe('completed');
    const capability = result.capability!;
    expect(capability.rehearsal?.runs.map((run) => [run.kind, run.inputs, run.outcome])).toEqual([
      ['replay', 'discovery', 'found'],
      ['example', 'not_found', 'not_found'],
    ]);
    // The missing issue's page names no input: its sign is its own words on a page built as it was.
    expect(capability.signs?.[0]).toMatchObject({ outcome: 'not_found', after: 1, shows: [] });
    expect(capability.signs?.[0]?.message).toBeDefined();
    expect(capability.signs?.[0]?.structure).toMatch(/^[0-9a-f]{64}$/);

    const found = await replay(capability, { number: 3 });
    expect(found.result?.outputs.title).toBe('Cannot log in');
    const missing = await replay(capability, { number: 77 });
    expect(missing.error).toBeUndefined();
    expect(missing.result?.outcome).toBe('not_found');
  }, 180_000);

  it('refuses a checkpoint whose target matches nothing on the page, saying a role name is whole, and takes the part-name form', async () => {
    const read = {
      tool: 'act' as const,
      args: {
        actions: [
          { op: 'read', target: { frame: [], locator: { by: 'pair', label: 'Title' } }, as: 'title' },
        ],
      },
    };
    // The heading is "Issue 2": a name of the number alone matches it only in part.
    const checkpoint = (exact?: boolean) => ({
      target: {
        frame: [],
        locator: {
          by: 'role',
          role: 'heading',
          name: '{{input.number}}',
          ...(exact === false ? { exact } : {}),
        },
      },
      input: 'number',
      match: 'contains',
    });
    const { result, replies } = await discover(tracker, issueLookup, [
      { tool: 'act', args: { actions: [{ op: 'navigate', url: '/issue?id={{input.number}}' }] } },
      read,
      { tool: 'complete', args: { outputs: ['title'], checkpoint: checkpoint() } },
      { tool: 'complete', args: { outputs: ['title'], checkpoint: checkpoint(false) } },
    ]);
    const completes = replies.filter((reply) => reply.tool === 'complete').map((reply) => reply.reply);
    expect(completes[0]).toMatchObject({
      ok: false,
      error: 'BAD_INPUT',
      message: expect.stringContaining('matches nothing on the page'),
      hint: expect.stringContaining('"exact": false'),
    });
    expect(result.status.outcome, JSON.stringify(completes[1])).toBe('completed');
    expect(result.capability?.checkpoint.target.locator).toMatchObject({
      name: '{{input.number}}',
      exact: false,
    });
  }, 180_000);

  it('answers a search that finds nothing as not_found, from a list built as discovery saw it, with no example', async () => {
    const { result, complete } = await discover(
      tracker,
      {
        name: 'issue_status_read',
        intent: 'Read the status of an issue by its title',
        inputs: [{ name: 'title', type: 'string' }],
        outputs: [{ name: 'status', type: 'string' }],
        bound: { title: 'Cannot log in' },
        start: '/issues',
      },
      [
        {
          tool: 'act',
          args: {
            actions: [
              { op: 'fill', target: label('Search'), value: { input: 'title' } },
              { op: 'click', target: role('Search') },
              {
                op: 'read',
                target: {
                  frame: [],
                  locator: { by: 'cell', row: '{{input.title}}', column: 'Status', key: 'Title' },
                },
                as: 'status',
              },
            ],
          },
        },
        {
          tool: 'complete',
          args: {
            outputs: ['status'],
            checkpoint: {
              target: {
                frame: [],
                locator: { by: 'cell', row: '{{input.title}}', column: 'Title', key: 'Title' },
              },
              input: 'title',
            },
          },
        },
      ],
    );
    expect(result.status.outcome, JSON.stringify(complete)).toBe('completed');
    const capability = result.capability!;
    expect(capability.rehearsal?.runs[0]).toMatchObject({
      kind: 'replay',
      inputs: 'discovery',
      outcome: 'found',
    });
    const found = await replay(capability, { title: 'Printer jams on page 3' });
    expect(found.result?.outputs.status).toBe('Open');
    const missing = await replay(capability, { title: 'No such issue' });
    expect(missing.error).toBeUndefined();
    expect(missing.result?.outcome).toBe('not_found');
    // Judged once the page was at rest, not at the step's deadline.
    expect(missing.ms).toBeLessThan(found.ms + 8_000);
  }, 180_000);

  it('takes a not_found example whose row is simply absent from the same list, with no message to learn', async () => {
    const cell = (column: string) => ({
      frame: [],
      locator: { by: 'cell', row: '{{input.title}}', column, key: 'Title' },
    });
    const { result, complete } = await discover(
      tracker,
      {
        name: 'issue_status_listed',
        intent: 'Read the status of an issue in the list by its title',
        inputs: [{ name: 'title', type: 'string' }],
        outputs: [{ name: 'status', type: 'string' }],
        bound: { title: 'Cannot log in' },
        start: '/issues',
      },
      [
        { tool: 'act', args: { actions: [{ op: 'read', target: cell('Status'), as: 'status' }] } },
        {
          tool: 'complete',
          args: {
            outputs: ['status'],
            checkpoint: { target: cell('Title'), input: 'title' },
            examples: [{ outcome: 'not_found', inputs: { title: 'Fax machine on fire' } }],
          },
        },
      ],
    );
    expect(result.status.outcome, JSON.stringify(complete)).toBe('completed');
    const capability = result.capability!;
    expect(capability.signs ?? []).toEqual([]);
    expect(capability.rehearsal?.runs.map((run) => [run.kind, run.inputs, run.outcome])).toEqual([
      ['replay', 'discovery', 'found'],
      ['example', 'not_found', 'not_found'],
    ]);
    const missing = await replay(capability, { title: 'Coffee machine' });
    expect(missing.error).toBeUndefined();
    expect(missing.result?.outcome).toBe('not_found');
  }, 180_000);

  it('says a changed screen after an input-shaped page is no structural change, which never switches a capability off', async () => {
    const { result } = await discover(tracker, issueLookup, [
      { tool: 'act', args: { actions: [{ op: 'navigate', url: '/issue?id={{input.number}}' }] } },
      {
        tool: 'act',
        args: {
          actions: [
            { op: 'read', target: { frame: [], locator: { by: 'pair', label: 'Title' } }, as: 'title' },
          ],
        },
      },
      {
        tool: 'complete',
        args: {
          outputs: ['title'],
          checkpoint: {
            target: role('Issue {{input.number}}', 'heading'),
            input: 'number',
            match: 'contains',
          },
        },
      },
    ]);
    // No not_found example: the missing issue's page is another page, which the inputs led to.
    const missing = await replay(result.capability!, { number: 77 });
    expect(missing.error?.code).toBe('SURFACE_CHANGED');
    expect(missing.error?.details?.structural).toBe(false);
  }, 180_000);
});

const issueCreate = {
  name: 'issue_create',
  intent: 'Create an issue with a title and a status',
  inputs: [
    { name: 'title', type: 'string' as const },
    { name: 'status', type: 'string' as const },
  ],
  outputs: [{ name: 'number', type: 'integer' as const }],
  start: '/issues/new',
};

const fillAndCreate: ScriptCall = {
  tool: 'act',
  args: {
    actions: [
      { op: 'fill', target: label('Title'), value: { input: 'title' } },
      { op: 'select', target: label('Status'), value: { input: 'status' } },
      { op: 'click', target: role('Create issue') },
    ],
  },
};

describe('a write is rehearsed by reading its result back, never by writing again', () => {
  let tracker: TinyTracker;
  beforeAll(async () => {
    tracker = await startTinyTracker('direct');
  });
  afterAll(() => tracker?.close());

  it('keeps a write whose only evidence is the page that answered its post, proved by that answer, and writes nothing', async () => {
    const bound = { title: 'Toner low on floor 2', status: 'Open' };
    const { result, complete } = await discover(
      tracker,
      { ...issueCreate, outputs: [{ name: 'status', type: 'string' }], bound },
      [
        fillAndCreate,
        {
          tool: 'act',
          args: {
            actions: [
              {
                op: 'read',
                target: { frame: [], locator: { by: 'cell', row: '{{input.title}}', column: 'Status' } },
                as: 'status',
              },
            ],
          },
        },
        {
          tool: 'complete',
          args: {
            outputs: ['status'],
            checkpoint: {
              target: { frame: [], locator: { by: 'cell', row: '{{input.title}}', column: 'Title' } },
              input: 'title',
              values: [
                {
                  target: { frame: [], locator: { by: 'cell', row: '{{input.title}}', column: 'Status' } },
                  input: 'status',
                },
              ],
            },
          },
        },
      ],
    );
    // A fresh visit of where the post led shows nothing; the capability never leaves the answer.
    expect(result.status.outcome, JSON.stringify(complete)).toBe('completed');
    expect(result.capability?.rehearsal?.runs).toEqual([
      { kind: 'answer', inputs: 'discovery', outcome: 'found', ms: 0 },
    ]);
    expect(tracker.posts.filter((title) => title === bound.title)).toHaveLength(1);
  }, 180_000);

  it('keeps it so too when its checkpoint names an element a fresh visit does not show (a moved page’s link)', async () => {
    const bound = { title: 'Scanner offline', status: 'Open' };
    const named = { frame: [], locator: { by: 'role', role: 'cell', name: '{{input.title}}' } };
    const status = { frame: [], locator: { by: 'role', role: 'cell', name: '{{input.status}}' } };
    // Read from the menu every page shows, so that only the checkpoint's targets are gone.
    const menu = { frame: [], locator: { by: 'role', role: 'link', name: 'Issues' } };
    const { result, complete } = await discover(
      tracker,
      { ...issueCreate, outputs: [{ name: 'status', type: 'string' }], bound },
      [
        fillAndCreate,
        { tool: 'act', args: { actions: [{ op: 'read', target: menu, as: 'status' }] } },
        {
          tool: 'complete',
          args: {
            outputs: ['status'],
            checkpoint: { target: named, input: 'title', values: [{ target: status, input: 'status' }] },
          },
        },
      ],
    );
    // The fresh visit ends in CHECK_FAILED with the target absent: the answer is gone, not wrong.
    expect(result.status.outcome, JSON.stringify(complete)).toBe('completed');
    expect(result.capability?.rehearsal?.runs).toEqual([
      { kind: 'answer', inputs: 'discovery', outcome: 'found', ms: 0 },
    ]);
    expect(tracker.posts.filter((title) => title === bound.title)).toHaveLength(1);
  }, 180_000);

  it('compiles once it reads the record back where it lives, answers a duplicate as rejected, and creates each once', async () => {
    const bound = { title: 'Badge reader offline', status: 'New' };
    const { result, complete } = await discover(tracker, { ...issueCreate, bound }, [
      fillAndCreate,
      { tool: 'act', args: { actions: [{ op: 'navigate', url: '/issues?q={{input.title}}' }] } },
      {
        tool: 'act',
        args: {
          actions: [
            {
              op: 'read',
              target: {
                frame: [],
                locator: { by: 'cell', row: '{{input.title}}', column: 'Id', key: 'Title' },
              },
              as: 'number',
            },
          ],
        },
      },
      {
        tool: 'complete',
        args: {
          outputs: ['number'],
          checkpoint: {
            target: {
              frame: [],
              locator: { by: 'cell', row: '{{input.title}}', column: 'Title', key: 'Title' },
            },
            input: 'title',
            values: [
              {
                target: {
                  frame: [],
                  locator: { by: 'cell', row: '{{input.title}}', column: 'Status', key: 'Title' },
                },
                input: 'status',
              },
            ],
          },
        },
      },
    ]);
    expect(result.status.outcome, JSON.stringify(complete)).toBe('completed');
    const capability = result.capability!;
    expect(capability.rehearsal?.runs).toEqual([
      expect.objectContaining({ kind: 'read_back', inputs: 'discovery', outcome: 'found' }),
    ]);
    expect(capability.outcomes).toContain('rejected');
    expect(capability.steps.filter((step) => step.writes).map((step) => step.op)).toEqual(['click']);
    // The rehearsal read the record back and wrote nothing.
    expect(tracker.posts.filter((title) => title === bound.title)).toHaveLength(1);

    const created = await replay(capability, { title: 'Projector bulb', status: 'Closed' });
    expect(created.error).toBeUndefined();
    expect(created.result?.outcome).toBe('found');
    const made = tracker.issues.filter((issue) => issue.title === 'Projector bulb');
    expect(made).toEqual([expect.objectContaining({ status: 'Closed' })]);
    expect(created.result?.outputs.number).toBe(made[0]!.id);

    const before = tracker.issues.length;
    const duplicate = await replay(capability, { title: 'Cannot log in', status: 'New' });
    expect(duplicate.error).toBeUndefined();
    expect(duplicate.result?.outcome).toBe('rejected');
    expect(duplicate.result?.message).toContain('already exists');
    expect(tracker.issues).toHaveLength(before);
  }, 240_000);
});

describe('a write whose answer is a message shown once', () => {
  let tracker: TinyTracker;
  beforeAll(async () => {
    tracker = await startTinyTracker('prg');
  });
  afterAll(() => tracker?.close());

  const created = (name: string) => ({
    target: { frame: [], locator: { by: 'pair', label: name } },
  });

  it('reads its new number from the flash and is read back from the record’s page, where the flash is gone', async () => {
    const bound = { title: 'Fan noise in room 4', status: 'Open' };
    const { result, complete } = await discover(tracker, { ...issueCreate, bound }, [
      fillAndCreate,
      {
        tool: 'complete',
        args: {
          outputs: ['number'],
          from: { number: { message: { pattern: 'Issue (\\d+) “' } } },
          checkpoint: {
            ...created('Title'),
            input: 'title',
            values: [{ ...created('Status'), input: 'status' }],
          },
        },
      },
    ]);
    expect(result.status.outcome, JSON.stringify(complete)).toBe('completed');
    const capability = result.capability!;
    expect(capability.rehearsal?.runs).toEqual([
      expect.objectContaining({ kind: 'read_back', inputs: 'discovery', outcome: 'found' }),
    ]);
    expect(tracker.posts.filter((title) => title === bound.title)).toHaveLength(1);
    const made = await replay(capability, { title: 'Door badge stuck', status: 'Closed' });
    expect(made.error).toBeUndefined();
    expect(made.result?.outputs.number).toBe(tracker.issues.find((i) => i.title === 'Door badge stuck')?.id);
  }, 180_000);

  it('whose only evidence is that message is stored with an answer run, and replays', async () => {
    const bound = { title: 'Blinds broken' };
    const titleOnly = { ...issueCreate, inputs: [issueCreate.inputs[0]!], bound };
    const { result, complete } = await discover(tracker, titleOnly, [
      {
        tool: 'act',
        args: {
          actions: [
            { op: 'fill', target: label('Title'), value: { input: 'title' } },
            { op: 'click', target: role('Create issue') },
          ],
        },
      },
      {
        tool: 'complete',
        args: {
          outputs: ['number'],
          from: { number: { message: { pattern: 'Issue (\\d+) “' } } },
          checkpoint: { target: role('', 'status'), input: 'title', match: 'contains' },
        },
      },
    ]);
    expect(result.status.outcome, JSON.stringify(complete)).toBe('completed');
    expect(result.capability?.rehearsal?.runs).toEqual([
      { kind: 'answer', inputs: 'discovery', outcome: 'found', ms: 0 },
    ]);
    const made = await replay(result.capability!, { title: 'Kettle leaks' });
    expect(made.error).toBeUndefined();
    expect(made.result?.outcome).toBe('found');
    expect(tracker.issues.filter((issue) => issue.title === 'Kettle leaks')).toHaveLength(1);
  }, 180_000);
});
