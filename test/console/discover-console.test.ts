import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityStore } from '../../src/capability/store.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import type { Explorer } from '../../src/discover/explorers/explorer.js';
import { runDiscovery } from '../../src/discover/run.js';
import type { DiscoverySession } from '../../src/discover/session.js';
import { replayCapability } from '../../src/replay/engine.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { openStore, type Store } from '../../src/store/store.js';
import { lift } from '../support/cli.js';
import { type ConsoleWorld, startConsoleWorld, TOKEN } from './support.js';

let world: ConsoleWorld;
let store: Store;

beforeAll(async () => {
  world = await startConsoleWorld();
  store = openStore(join(world.dir, 'home'));
});
afterAll(async () => {
  await store?.close();
  await world?.close();
});

/** The ref of the first line of an observation that names this role and name. */
function refOf(observation: string, role: string, name: string): string {
  const line = observation.split('\n').find((text) => text.includes(role) && text.includes(`"${name}"`));
  const ref = line && /\b((?:f\d{1,3})?e\d{1,6})\b/.exec(line)?.[1];
  if (!ref) throw new Error(`No ${role} "${name}" in the observation:\n${observation}`);
  return ref;
}

/**
 * An explorer that knows nothing of the console's markup: it reads the observation, clicks the
 * Approve button whose ref it found there, reads the answer and completes. No model is involved.
 */
class ApproveFirstHeld implements Explorer {
  readonly kind = 'scripted' as const;
  observations: string[] = [];

  constructor(private readonly approvalsUrl: string) {}

  async explore(session: DiscoverySession): Promise<void> {
    // The tool chooses which held calls the page lists: the one input the task has.
    const opened = await session.call('act', {
      actions: [{ op: 'navigate', url: `${this.approvalsUrl}?tool={{input.tool}}` }],
    });
    if (!opened.ok) throw new Error(`navigate refused: ${JSON.stringify(opened)}`);
    const seen = await session.call('observe', {});
    const text = String(seen.ok ? seen.observation : '');
    this.observations.push(text);
    const acted = await session.call('act', {
      actions: [{ op: 'click', target: { ref: refOf(text, 'button', 'Approve') } }],
    });
    if (!acted.ok) throw new Error(`act refused: ${JSON.stringify(acted)}`);
    const after = await session.call('observe', {});
    this.observations.push(String(after.ok ? after.observation : ''));
    const status = { frame: [], locator: { by: 'role', role: 'status', name: 'Last answer' } };
    const read = await session.call('act', { actions: [{ op: 'read', target: status, as: 'answer' }] });
    if (!read.ok) throw new Error(`read refused: ${JSON.stringify(read)}`);
    const done = await session.call('complete', {
      outputs: ['answer'],
      checkpoint: { target: status, input: 'tool', match: 'contains' },
    });
    if (!done.ok) throw new Error(`complete refused: ${JSON.stringify(done)}`);
  }
}

async function signedInPage(): Promise<Page> {
  const context = await world.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${world.url}login`);
  await page.getByLabel('Serve token').fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/approvals/);
  return page;
}

function policy() {
  const origin = new URL(world.url).origin;
  return parsePolicy({
    version: 1,
    origins: [origin],
    paths: ['/console', '/console/**'],
    clickNames: ['Approve'],
    blockedNames: ['Deny', 'Sign out', 'Hold the changed call'],
    budgets: { steps: 20, seconds: 60, rejected: 3 },
  });
}

describe("the console is a page Lift's own UI rung drives", () => {
  // Two lift processes, a discovery and a replay: a minute on a loaded machine, so the bound is wide.
  it('discovers "approve the first held call", compiles it, and replays it on a new held call', {
    timeout: 180_000,
  }, async () => {
    const held = await lift(
      ['call', 'notice_publish', '--input', '{"name":"found by lift","request_id":"disc-1"}'],
      {
        cwd: world.dir,
        env: world.env,
      },
    );
    expect(JSON.parse(held.stdout).pending).toBeDefined();
    const page = await signedInPage();
    const explorer = new ApproveFirstHeld(`${world.url}approvals`);
    const result = await runDiscovery({
      store,
      capabilities: new CapabilityStore(store.capabilities),
      page,
      policy: policy(),
      task: {
        name: 'approve_first_held',
        intent: 'Approve the first held call of a tool and return the answer the console shows',
        inputs: [{ name: 'tool', type: 'string' }],
        outputs: [{ name: 'answer', type: 'string' }],
        bound: { tool: 'notice_publish' },
        startUrl: `${world.url}approvals`,
      },
      explorer,
      liftVersion: LIFT_VERSION,
    });
    expect(result.status.outcome, result.status.reason).toBe('completed');
    expect(result.modelCalls).toBe(0);
    const capability = result.capability!;
    expect(capability.steps.map((step) => step.op)).toEqual(['navigate', 'click', 'read']);

    const waiting = world.call('notice_publish', { name: 'replayed by lift', request_id: 'disc-2' });
    await page.goto(`${world.url}approvals`);
    await page.locator('#held > li', { hasText: 'replayed by lift' }).waitFor({ timeout: 30_000 });
    const replayed = await replayCapability(
      capability,
      { tool: 'notice_publish' },
      {
        page,
        evidenceDir: join(world.dir, 'evidence'),
        ...(result.revision ? { revision: result.revision } : {}),
      },
    );
    expect(replayed.outcome).toBe('found');
    expect(String(replayed.outputs.answer)).toContain('approved');
    const answer = await waiting.done;
    expect(answer.code).toBe(0);
    expect(JSON.parse(answer.stdout).fields.name).toBe('notice: replayed by lift');
    await page.context().close();
  });
});
