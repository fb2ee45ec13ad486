import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityStore } from '../../src/capability/store.js';
import { Registrations } from '../../src/replay/registrations.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { memberLookupDefinition } from '../replay/helpers.js';
import { lift } from '../support/cli.js';
import { type ConsoleWorld, screenshot, startConsoleWorld } from './support.js';

let world: ConsoleWorld;
let revisions: string[] = [];

beforeAll(async () => {
  world = await startConsoleWorld();
  for (const name of ['run one', 'run two']) {
    const made = await lift(
      [
        'call',
        'record_create',
        '--input',
        JSON.stringify({ name, request_id: `req-${name.replace(' ', '-')}` }),
      ],
      {
        cwd: world.dir,
        env: world.env,
      },
    );
    expect(made.code).toBe(0);
  }
  await lift(['call', 'record_create', '--input', '{"name":7}'], { cwd: world.dir, env: world.env });
  const held = await lift(
    ['call', 'notice_publish', '--input', '{"name":"runs page","request_id":"held-runs"}'],
    {
      cwd: world.dir,
      env: world.env,
    },
  );
  expect(held.code, held.stderr).toBe(4);
  const runtime = new Runtime({ home: join(world.dir, 'home') });
  try {
    const store = new CapabilityStore(runtime.store.capabilities);
    const first = memberLookupDefinition('http://127.0.0.1:1', 'a'.repeat(64));
    const second = { ...first, intent: 'Look a member up by ID and read the savings balance' };
    revisions = [(await store.save(first)).revision, (await store.save(second)).revision];
    const registrations = new Registrations(runtime.store.db);
    registrations.register({ name: first.name, revision: revisions[1] ?? '', effectClass: 'read' });
    registrations.recordSurfaceChanged(first.name, 'the Look up button is gone');
    registrations.recordSurfaceChanged(first.name, 'the Look up button is gone');
  } finally {
    await runtime.close();
  }
});
afterAll(() => world?.close());

describe('the console shows runs, capabilities, tools and the ladder', () => {
  it('lists runs, filters them by tool and outcome, and reads one run with its events', async () => {
    const { page } = world;
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByLabel('Tool or title').fill('record_create');
    await page.getByLabel('Outcome').selectOption('failed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.locator('#run-count').textContent()).resolves.toBe('1 run');
    await page.getByLabel('Outcome').selectOption('ok');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.locator('#run-count').textContent()).resolves.toBe('2 runs');
    // A held call did not run: the list says held, never ok.
    await page.getByLabel('Tool or title').fill('notice_publish');
    await page.getByLabel('Outcome').selectOption('ok');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.locator('#run-count').textContent()).resolves.toBe('0 runs');
    await page.getByLabel('Outcome').selectOption('held');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.locator('#run-count').textContent()).resolves.toBe('1 run');
    await expect(page.locator('tbody .badge').textContent()).resolves.toBe('held');
    await page.getByLabel('Tool or title').fill('record_create');
    await page.getByLabel('Outcome').selectOption('ok');
    await page.getByRole('button', { name: 'Filter' }).click();
    await screenshot(page, 'runs');
    await page.locator('tbody tr').first().getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('record_create');
    await expect(page.locator('#model-events').textContent()).resolves.toBe('0');
    const events = await page.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(events).toEqual(expect.arrayContaining(['call-start', 'input-validated', 'gate-passed']));
    await screenshot(page, 'run');
  });

  it('shows a capability card, diffs two revisions, and enables a switched-off capability again', async () => {
    const { page } = world;
    await page.getByRole('link', { name: 'Capabilities' }).click();
    await expect(page.getByText('switched off').count()).resolves.toBe(1);
    await expect(page.getByText('the Look up button is gone').count()).resolves.toBe(1);
    await screenshot(page, 'capabilities');
    await page.getByRole('button', { name: 'Compare' }).click();
    await expect(page.locator('.diff li').allTextContents()).resolves.toEqual([
      expect.stringContaining('intent'),
    ]);
    await screenshot(page, 'capability-diff');
    await page.goto(`${world.url}capabilities/${revisions[1]}`);
    for (const heading of ['Intent', 'Inputs', 'Outputs', 'Steps', 'Checkpoint', 'Outcomes', 'Provenance']) {
      await expect(page.getByRole('heading', { name: heading, exact: true }).count()).resolves.toBe(1);
    }
    await screenshot(page, 'capability');
    await page.getByRole('button', { name: 'Enable member_lookup_savings again' }).click();
    await expect(page.locator('#flash').textContent()).resolves.toContain('enabled again');
    await expect(page.getByText('switched off').count()).resolves.toBe(0);
  });

  it('answers 404 for a missing run, capability, revision, tool or handoff, saying what is missing and linking back', async () => {
    const { page } = world;
    const missing: Array<[string, RegExp, string]> = [
      ['runs/run_00000000_missing', /No run has id run_00000000_missing/, 'All runs'],
      [
        'capabilities/no_such_capability',
        /No stored capability or revision matches no_such_capability/,
        'All capabilities',
      ],
      [
        `capabilities/${'0'.repeat(64)}`,
        /No stored capability or revision matches 0{64}/,
        'All capabilities',
      ],
      [`capabilities/diff?a=${revisions[0]}&b=${'f'.repeat(12)}`, /matches f{12}/, 'All capabilities'],
      ['tools/no_such_tool', /No tool is named no_such_tool/, 'All tools'],
      ['handoffs/ho_000000000000', /No page is waiting for a person as ho_000000000000/, 'All handoffs'],
      ['handoffs/ho_000000000000/frames', /No page is waiting for a person/, 'All handoffs'],
      ['nowhere/at/all', /No console page is at \/console\/nowhere\/at\/all/, 'Approvals'],
    ];
    for (const [path, says, back] of missing) {
      const response = await page.goto(`${world.url}${path}`);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Not found');
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(says);
      await expect(page.getByRole('link', { name: `← ${back}` }).count()).resolves.toBe(1);
    }
    await screenshot(page, 'not-found');
    await page.getByRole('link', { name: '← Approvals' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Approvals');
  });

  it('answers 404, not 500, for a capability whose stored file is gone', async () => {
    const runtime = new Runtime({ home: join(world.dir, 'home') });
    let revision = '';
    try {
      const store = new CapabilityStore(runtime.store.capabilities);
      const gone = memberLookupDefinition('http://127.0.0.1:2', 'b'.repeat(64));
      revision = (await store.save({ ...gone, name: 'file_gone' })).revision;
      rmSync(join(runtime.home, 'capabilities', `${revision}.json`));
    } finally {
      await runtime.close();
    }
    const response = await world.page.goto(`${world.url}capabilities/${revision}`);
    expect(response?.status()).toBe(404);
    await expect(world.page.getByRole('alert').textContent()).resolves.toContain('is gone from the store');
  });

  it('shows every tool with its contract card, and the ladder report', async () => {
    const { page } = world;
    await page.getByRole('link', { name: 'Tools' }).click();
    await page.getByLabel('Name or words').fill('notice');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('link', { name: 'notice_publish' }).click();
    const card = (await page.getByLabel('Contract card of notice_publish').textContent()) ?? '';
    expect(card).toContain('WRAPPER CONTRACT');
    expect(card).toContain('class: visible · gate: review');
    await screenshot(page, 'tool');
    await page.getByRole('link', { name: 'Ladder' }).click();
    await expect(page.getByRole('heading', { name: 'Ladder', level: 1 }).count()).resolves.toBe(1);
    await screenshot(page, 'ladder');
  });
});
