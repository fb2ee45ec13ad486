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
