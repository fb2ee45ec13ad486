import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBackoffice } from '../../src/fixtures/backoffice/index.js';
import { launchChromium, memberLookupCapability, signedInPage, tempHome } from '../replay/helpers.js';
import { type Listener, startListener } from '../security/listener.js';
import { LOOK_UP_MEMBER, lift } from './cli-helpers.js';

/**
 * A member lookup the application answers with a 302 to another origin, the member ID in
 * the query: `lift session` (discovery) and `lift replay` stop it before it leaves the
 * browser, record origin and path only, and answer POLICY_BLOCKED.
 */
let fixture: Awaited<ReturnType<typeof startBackoffice>>;
let listener: Listener;
const home = tempHome();
const PASSWORD = 'backoffice-demo';
let env: Record<string, string>;
let capabilityFile: string;

beforeAll(async () => {
  listener = await startListener();
  fixture = await startBackoffice({ password: PASSWORD, redirectTo: `${listener.origin}/collect` });
  const browser = await launchChromium();
  try {
    const page = await signedInPage(browser, fixture);
    capabilityFile = join(home.home, 'member-lookup.json');
    writeFileSync(capabilityFile, JSON.stringify(await memberLookupCapability(page, fixture.origin)));
  } finally {
    await browser.close();
  }
  fixture.setScenario('redirect_other_origin');
  writeFileSync(
    join(home.home, 'policy.json'),
    JSON.stringify({ origins: [fixture.origin], clickNames: ['Members', 'Look up'] }),
  );
  env = { LIFT_HOME: join(home.home, 'lift'), LIFT_SECRET_BACKOFFICE_PASSWORD: PASSWORD };
});
afterAll(async () => {
  await fixture?.close();
  await listener?.close();
  home.cleanup();
});

async function blockedEventsOf(runId: string): Promise<Array<Record<string, unknown>>> {
  const shown = await lift(['runs', 'show', runId, '--json'], env, home.home);
  const { events } = JSON.parse(shown.stdout) as { events: Array<Record<string, unknown>> };
  return events.filter((event) => event.type === 'ui-request-blocked');
}

it('lift session: the lookup redirected to another origin is stopped, and the step says POLICY_BLOCKED', {
  timeout: 240_000,
}, async () => {
  const start = await lift(
    [
      'session',
      'start',
      '--url',
      `${fixture.origin}/app?view=/app/members`,
      '--policy',
      join(home.home, 'policy.json'),
      '--task',
      'Verify a member ID and return the savings balance',
      '--name',
      'member_lookup_savings',
      '--input',
      'memberId=M-1001',
      '--output',
      'savingsBalance:number',
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
  const { id, run_id: runId } = JSON.parse(start.stdout) as { id: string; run_id: string };
  try {
    const acted = await lift(['session', 'act', id, LOOK_UP_MEMBER, '--json'], env, home.home);
    const reply = JSON.parse(acted.stdout) as { results: Array<{ status: string; code?: string }> };
    expect(reply.results[1]).toMatchObject({ status: 'executed', code: 'POLICY_BLOCKED' });
  } finally {
    await lift(['session', 'stop', id], env, home.home);
  }
  expect(listener.requests).toEqual([]);
  expect(listener.connections).toBe(0);
  const blocked = await blockedEventsOf(runId);
  expect(blocked[0]).toMatchObject({
    origin: listener.origin,
    path: '/collect',
    navigation: true,
    redirect: true,
  });
  expect(JSON.stringify(blocked)).not.toContain('M-1001');
});

it('lift replay: the same redirect during a replay ends it with POLICY_BLOCKED, nothing sent', {
  timeout: 240_000,
}, async () => {
  const added = await lift(
    [
      'capabilities',
      'add',
      capabilityFile,
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
  const replay = await lift(
    ['replay', 'member_lookup_savings', '--input', '{"memberId":"M-1001"}', '--json'],
    env,
    home.home,
  );
  const answer = JSON.parse(replay.stdout) as { ok: boolean; run_id: string; error?: { code: string } };
  expect(answer.ok).toBe(false);
  expect(answer.error?.code).toBe('POLICY_BLOCKED');
  expect(listener.requests).toEqual([]);
  expect(listener.connections).toBe(0);
  const blocked = await blockedEventsOf(answer.run_id);
  expect(blocked[0]).toMatchObject({ origin: listener.origin, path: '/collect', redirect: true });
  expect(JSON.stringify(blocked)).not.toContain('M-1001');
});
