import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { memberLookupPolicy } from '../../src/apps/backoffice/member-lookup-script.js';
import { startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { tempHome } from '../replay/helpers.js';
import { alive, lift } from './cli-helpers.js';

let fixture: Awaited<ReturnType<typeof startBackoffice>>;
const home = tempHome();
const CANARY = 'canary-pw-7f3e9a';
let env: Record<string, string>;

beforeAll(async () => {
  fixture = await startBackoffice({ password: CANARY });
  writeFileSync(join(home.home, 'policy.json'), JSON.stringify(memberLookupPolicy(fixture.origin)));
  env = { LIFT_HOME: join(home.home, 'lift'), LIFT_SECRET_BACKOFFICE_PASSWORD: CANARY };
});
afterAll(async () => {
  await fixture?.close();
  home.cleanup();
});

const workspace = ['Workspace'];

it('drives a discovery session step by step from the command line, and the daemon exits at the end', {
  timeout: 240_000,
}, async () => {
  const start = await lift(
    [
      'session',
      'start',
      '--url',
      `${fixture.origin}/app?view=/app/tickets`,
      '--policy',
      join(home.home, 'policy.json'),
      '--task',
      'Verify a member ID and return the savings balance and currency',
      '--name',
      'member_lookup_savings',
      '--input',
      'memberId=M-1001',
      '--output',
      'savingsBalance:number',
      '--output',
      'currency:string',
      '--hide',
      'Balance',
      '--user',
      'operator',
      '--secret',
      'backoffice_password',
      '--json',
    ],
    env,
    home.home,
  );
  expect(start.code, start.stderr).toBe(0);
  const { id, pid } = JSON.parse(start.stdout) as { id: string; pid: number };
  expect(alive(pid)).toBe(true);

  const observed = await lift(['session', 'observe', id], env, home.home);
  expect(observed.stdout).toContain('link "Members"');
  const act = (actions: unknown) => lift(['session', 'act', id, JSON.stringify(actions)], env, home.home);
  expect(
    (
      await act([
        { op: 'click', target: { frame: [], locator: { by: 'role', role: 'link', name: 'Members' } } },
      ])
    ).code,
  ).toBe(0);
  const typed = await act([
    {
      op: 'fill',
      target: { frame: workspace, locator: { by: 'label', label: 'Member ID' } },
      value: '⟦input:memberId⟧',
    },
  ]);
  // Every action rejected is no success; the text names the action, why, and what to send.
  expect(typed.code).toBe(1);
  expect(typed.stdout).toMatch(/^error \w+: Every action was rejected/);
  expect(typed.stdout).toMatch(/^1\. fill: rejected/m);
  expect(typed.stdout).toMatch(/^ {3}hint: .*input/m);
  await act([
    {
      op: 'fill',
      target: { frame: workspace, locator: { by: 'label', label: 'Member ID' } },
      value: { input: 'memberId' },
    },
    { op: 'click', target: { frame: workspace, locator: { by: 'role', role: 'button', name: 'Look up' } } },
  ]);
  const reads = await act([
    {
      op: 'read',
      target: { frame: workspace, locator: { by: 'cell', row: 'Savings', column: 'Balance' } },
      as: 'savingsBalance',
    },
    {
      op: 'read',
      target: { frame: workspace, locator: { by: 'cell', row: 'Savings', column: 'Currency' } },
      as: 'currency',
    },
  ]);
  expect(reads.stdout).not.toContain('12840.55');
  const complete = await lift(
    [
      'session',
      'complete',
      id,
      JSON.stringify({
        outputs: ['savingsBalance', 'currency'],
        checkpoint: {
          target: {
            frame: workspace,
            locator: { by: 'cell', row: '{{input.memberId}}', column: 'Member ID' },
          },
          input: 'memberId',
        },
      }),
    ],
    env,
    home.home,
  );
  expect(complete.code, complete.stdout).toBe(0);
  // Text by default: what was compiled, the file it is in, and every action it left out.
  const revision = /revision ([0-9a-f]{64})/.exec(complete.stdout)?.[1] ?? '';
  expect(revision, complete.stdout).toMatch(/^[0-9a-f]{64}$/);
  expect(complete.stdout).toContain(`file: ${join(env.LIFT_HOME!, 'capabilities', `${revision}.json`)}`);
  expect(complete.stdout).toMatch(/^left out: action 2 \(fill\): rejected/m);

  for (let waited = 0; waited < 20_000 && alive(pid); waited += 200)
    await new Promise((r) => setTimeout(r, 200));
  expect(alive(pid)).toBe(false);
  const status = await lift(['session', 'status', id, '--json'], env, home.home);
  expect(JSON.parse(status.stdout)).toMatchObject({ outcome: 'completed', revision, running: false });
  const statusText = await lift(['session', 'status', id], env, home.home);
  expect(statusText.stdout).toMatch(/^outcome: completed$/m);
  const shownText = await lift(['capabilities', 'show', revision.slice(0, 12)], env, home.home);
  expect(shownText.stdout).toContain(`file: ${join(env.LIFT_HOME!, 'capabilities', `${revision}.json`)}`);

  const shown = await lift(['capabilities', 'show', revision.slice(0, 12), '--json'], env, home.home);
  expect(JSON.parse(shown.stdout).capability.steps.length).toBeGreaterThanOrEqual(5);
  const file = readFileSync(join(env.LIFT_HOME!, 'capabilities', `${revision}.json`), 'utf8');
  expect(file).not.toContain(CANARY);
  expect(file).not.toContain('M-1001');
});
