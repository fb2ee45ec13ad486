import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CapabilityStore } from '../../src/capability/store.js';
import { loadMembers } from '../../src/fixtures/backoffice/index.js';
import { openStore } from '../../src/store/store.js';
import {
  launchChromium,
  memberLookupCapability,
  signedInPage,
  startBackoffice,
  tempHome,
} from '../replay/helpers.js';
import { LIFT, lift } from './cli-helpers.js';

let fixture: Awaited<ReturnType<typeof startBackoffice>>;
const home = tempHome();
let env: Record<string, string>;
let file: string;
const savings = (id: string) =>
  loadMembers()
    .find((member) => member.id === id)!
    .accounts.find((account) => account.type === 'Savings')!;

beforeAll(async () => {
  fixture = await startBackoffice();
  const browser = await launchChromium();
  try {
    const page = await signedInPage(browser, fixture);
    const capability = await memberLookupCapability(page, fixture.origin);
    file = join(home.home, 'member-lookup.json');
    writeFileSync(file, JSON.stringify(capability, null, 2));
  } finally {
    await browser.close();
  }
  env = { LIFT_HOME: join(home.home, 'lift'), LIFT_SECRET_BACKOFFICE_PASSWORD: 'backoffice-demo' };
});
afterAll(async () => {
  await fixture?.close();
  home.cleanup();
});

const call = async (memberId: string) => {
  const result = await lift(
    ['call', 'member_lookup_savings', '--input', JSON.stringify({ memberId })],
    env,
    home.home,
  );
  return JSON.parse(result.stdout) as {
    ok: boolean;
    fields?: Record<string, unknown>;
    error?: { code: string };
    run_id: string;
  };
};

it('registers a capability as a tool: listed, callable with lift call and over MCP, with zero model events', {
  timeout: 240_000,
}, async () => {
  const added = await lift(
    [
      'capabilities',
      'add',
      file,
      '--effect',
      'read',
      '--user',
      'operator',
      '--secret',
      'backoffice_password',
    ],
    env,
    home.home,
  );
  expect(added.code, added.stderr).toBe(0);
  const listed = await lift(['tools', 'list', '--json'], env, home.home);
  expect(listed.stdout).toContain('member_lookup_savings');

  const envelope = await call('M-1004');
  expect(envelope.ok).toBe(true);
  expect(envelope.fields).toEqual({
    outcome: 'found',
    savingsBalance: Number(savings('M-1004').balance),
    currency: savings('M-1004').currency,
  });
  const shown = JSON.parse(
    (await lift(['runs', 'show', envelope.run_id, '--json'], env, home.home)).stdout,
  ) as { model_events: number; events: Array<{ type: string }> };
  expect(shown.model_events).toBe(0);
  expect(shown.events.filter((event) => event.type === 'replay-step-end').length).toBeGreaterThan(0);

  const client = new Client({ name: 'capability-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [LIFT, 'serve', '--stdio'],
    env: { ...(process.env as Record<string, string>), ...env },
    cwd: home.home,
  });
  await client.connect(transport);
  try {
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain('member_lookup_savings');
    // A session the back office forgot: the replay signs in again, and says so.
    fixture.expireSessions();
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: 'member_lookup_savings', arguments: { memberId: 'M-1002' } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    expect(JSON.stringify(result)).toContain(savings('M-1002').currency);
    expect(result.isError ?? false).toBe(false);
    expectReplayProgressInWords(progress);
  } finally {
    await client.close();
  }
});

/** The capability's four steps as a progress bar shows them: its targets, never the member id typed. */
const STEP_LINES = [
  'Step 1 of 4: fill field labelled "Member ID"',
  'Step 2 of 4: click button "Look up"',
  'Step 3 of 4: read cell (row "Savings", column "Balance")',
  'Step 4 of 4: read cell (row "Savings", column "Currency")',
];

function expectReplayProgressInWords(progress: Progress[]): void {
  const said = progress.map((update) => update.message ?? '');
  expect(said[0]).toBe('Starting member_lookup_savings');
  expect(said).toContainEqual(expect.stringMatching(/^Signing in to http:\/\/127\.0\.0\.1:\d+\/login$/));
  // Progress is sent at most every 50 ms, the newest line of a burst only: which steps are
  // heard depends on the machine's pace, what each says and counts does not.
  const steps = progress.filter((update) => update.message?.startsWith('Step '));
  expect(steps.length).toBeGreaterThan(0);
  for (const step of steps) {
    const number = STEP_LINES.indexOf(step.message!) + 1;
    expect(number, step.message).toBeGreaterThan(0);
    expect(step).toEqual({ progress: number, total: 4, message: step.message });
  }
  const values = progress.map((update) => update.progress);
  for (let index = 1; index < values.length; index++)
    expect(values[index]).toBeGreaterThan(values[index - 1]!);
  for (const update of progress)
    if (update.total !== undefined) expect(update.progress).toBeLessThanOrEqual(4);
  const text = JSON.stringify(progress);
  expect(text).not.toContain('M-1002');
  expect(text).not.toContain('backoffice-demo');
}

it('switches itself off after two SURFACE_CHANGED in a row until a person re-enables it', {
  timeout: 240_000,
}, async () => {
  fixture.setScenario('relabelled');
  expect((await call('M-1001')).error?.code).toBe('SURFACE_CHANGED');
  expect((await call('M-1001')).error?.code).toBe('SURFACE_CHANGED');
  fixture.setScenario('normal');
  expect((await call('M-1001')).error?.code).toBe('CAPABILITY_DISABLED');
  expect((await lift(['capabilities', 'enable', 'member_lookup_savings'], env, home.home)).code).toBe(0);
  expect((await call('M-1001')).ok).toBe(true);
});

it('refuses a tampered capability before touching the page', { timeout: 120_000 }, async () => {
  const store = openStore(env.LIFT_HOME!);
  const stored = (await new CapabilityStore(store.capabilities).resolve('member_lookup_savings'))!;
  store.close();
  const text = readFileSync(stored.file, 'utf8');
  writeFileSync(stored.file, text.replace('"Look up"', '"Transfer"'));
  fixture.clearRequests();
  const replay = await lift(
    ['replay', 'member_lookup_savings', '--input', '{"memberId":"M-1001"}', '--json'],
    env,
    home.home,
  );
  expect(JSON.parse(replay.stdout).error.code).toBe('REVISION_MISMATCH');
  expect(fixture.requests()).toEqual([]);
  writeFileSync(stored.file, text);
  const pinned = await lift(
    ['replay', file, '--input', '{"memberId":"M-1001"}', '--revision', 'f'.repeat(64), '--json'],
    env,
    home.home,
  );
  expect(JSON.parse(pinned.stdout).error.code).toBe('REVISION_MISMATCH');
  expect(fixture.requests()).toEqual([]);
});
