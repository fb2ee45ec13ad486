/**
 * Model-free replay of the member lookup against a hand-written Playwright script doing the
 * same steps with the same waits, measured in the same run on the same fixture:
 *   warm      N replays on one warm context (medians and ratio)
 *   cold      one replay including the browser start (median of three, taking turns)
 *   parallel  throughput with 4 concurrent contexts
 *   floor     what one document costs any Playwright script on this machine: a navigation
 *             to the fixture's smallest page plus the first locator query in it (Playwright
 *             sets up its injected script once per document); the lookup loads four
 * node --import tsx bench/replay.bench.ts   (BENCH_REPLAYS=N to change N, default 50)
 * LIFT_BENCH_SHORT=1: two warm replays, one cold start and one throughput round (bench/short.ts)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import {
  MEMBER_LOOKUP_SCRIPT,
  memberLookupPolicy,
  memberLookupTask,
} from '../src/apps/backoffice/member-lookup-script.js';
import type { Capability } from '../src/capability/capability.js';
import { CapabilityStore } from '../src/capability/store.js';
import { LIFT_VERSION } from '../src/contract/version.js';
import { ScriptedExplorer } from '../src/discover/explorers/scripted.js';
import { runDiscovery } from '../src/discover/run.js';
import { type BackofficeServer, startBackoffice } from '../src/fixtures/backoffice/index.js';
import { replayCapability } from '../src/replay/engine.js';
import { CHROMIUM_ARGS } from '../src/rungs/ui/browser.js';
import { parsePolicy } from '../src/rungs/ui/policy.js';
import { passwordFormSignIn } from '../src/rungs/ui/sign-in.js';
import { openStore } from '../src/store/store.js';
import { iterations, setting } from './short.js';

const N = setting('BENCH_REPLAYS', 50, 2);
/** Cold starts of each path: each is a browser start, a sign-in and one lookup (about 3 s). */
const COLD_ROUNDS = iterations(3, 1);
/** Navigations timed for the document floor. */
const FLOORS = iterations(15, 1);
/** Rounds of the 4-context throughput run, each path in turn, and the fewest lookups per context in a round. */
const THROUGHPUT_ROUNDS = iterations(2, 1);
const THROUGHPUT_MIN_PER = iterations(2, 1);
const IDS = ['M-1002', 'M-1004', 'M-1005', 'M-1001', 'M-1003', 'M-1006'];
const PASSWORD = 'backoffice-demo';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function line(name: string, lift: number, baseline: number, unit: string): void {
  console.log(
    `${name}: lift ${lift.toFixed(1)} ${unit}, baseline ${baseline.toFixed(1)} ${unit}, ratio ${(lift / baseline).toFixed(2)}`,
  );
}

const launch = () => chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });

async function signedIn(browser: Browser, fixture: BackofficeServer): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${fixture.url}/login`);
  await page.getByLabel('User').fill(fixture.user);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button').click();
  await page.waitForURL(/\/app/);
  return page;
}

/** What a person would write by hand for the same seven steps, with the same waits. */
async function handWritten(
  page: Page,
  start: string,
  memberId: string,
): Promise<{ balance: number; currency: string }> {
  await page.goto(start, { waitUntil: 'load' });
  await page.getByRole('link', { name: 'Members', exact: true }).click();
  const workspace = page.frameLocator('iframe[title="Workspace"]');
  const field = workspace.getByLabel('Member ID', { exact: true });
  await field.waitFor();
  await field.fill(memberId);
  await workspace.getByRole('button', { name: 'Look up', exact: true }).click();
  await workspace.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
  const accounts = workspace
    .locator('table')
    .filter({ has: workspace.getByRole('columnheader', { name: 'Balance', exact: true }) });
  const savings = accounts
    .getByRole('row')
    .filter({ has: workspace.getByRole('cell', { name: 'Savings', exact: true }) });
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
  const balance = Number(await savings.getByRole('cell').nth(2).innerText());
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it
  const currency = (await savings.getByRole('cell').nth(3).innerText()).trim();
  const shown = await workspace
    .getByRole('row')
    .filter({ has: workspace.getByRole('cell', { name: memberId, exact: true }) })
    .count();
  if (shown !== 1) throw new Error(`the page does not show ${memberId}`);
  return { balance, currency };
}

async function discover(fixture: BackofficeServer, browser: Browser, home: string): Promise<Capability> {
  const store = openStore(home);
  try {
    const page = await (await browser.newContext()).newPage();
    const result = await runDiscovery({
      store,
      capabilities: new CapabilityStore(store.capabilities),
      page,
      policy: parsePolicy(memberLookupPolicy(fixture.origin)),
      task: memberLookupTask(fixture.origin, 'M-1001'),
      explorer: new ScriptedExplorer(MEMBER_LOOKUP_SCRIPT),
      hidden: ['Balance'],
      signIn: { recipe: passwordFormSignIn(fixture.user, { literal: PASSWORD }) },
      liftVersion: LIFT_VERSION,
    });
    await page.context().close();
    if (!result.capability) throw new Error(`discovery failed: ${result.status.reason}`);
    return result.capability;
  } finally {
    store.close();
  }
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'lift-bench-replay-'));
  const fixture = await startBackoffice();
  const browser = await launch();
  try {
    const capability = await discover(fixture, browser, home);
    const start = new URL(capability.preconditions.path, fixture.origin).href;
    const evidenceDir = join(home, 'evidence');
    const page = await signedIn(browser, fixture);
    const liftTimes: number[] = [];
    const baseTimes: number[] = [];
    // Warm up both paths once, then alternate so drift hits both equally.
    await replayCapability(capability, { memberId: 'M-1001' }, { page, evidenceDir });
    await handWritten(page, start, 'M-1001');
    for (let index = 0; index < N; index++) {
      const memberId = IDS[index % IDS.length]!;
      let t0 = performance.now();
      const result = await replayCapability(capability, { memberId }, { page, evidenceDir });
      liftTimes.push(performance.now() - t0);
      if (result.outcome !== 'found') throw new Error(`replay of ${memberId} answered ${result.outcome}`);
      t0 = performance.now();
      await handWritten(page, start, memberId);
      baseTimes.push(performance.now() - t0);
    }
    line(
      `replay warm median (${N} runs, ${capability.steps.length} steps)`,
      median(liftTimes),
      median(baseTimes),
      'ms',
    );
    const floors: number[] = [];
    for (let index = 0; index < FLOORS; index++) {
      const t0 = performance.now();
      await page.goto(`${fixture.url}/login?${index}`, { waitUntil: 'load' });
      await page.getByLabel('User').count();
      floors.push(performance.now() - t0);
    }
    console.log(
      `document floor (navigation + first locator query, any Playwright script): ${median(floors).toFixed(1)} ms per document; the lookup loads 4 documents`,
    );

    // Cold: a new browser, a new context, the sign-in, then one replay; three of each path,
    // taking turns, so one slow browser start does not decide the ratio.
    const coldLift: number[] = [];
    const coldScript: number[] = [];
    for (let round = 0; round < COLD_ROUNDS; round++) {
      let t0 = performance.now();
      const liftBrowser = await launch();
      const liftPage = await signedIn(liftBrowser, fixture);
      await replayCapability(capability, { memberId: 'M-1004' }, { page: liftPage, evidenceDir });
      coldLift.push(performance.now() - t0);
      await liftBrowser.close();
      t0 = performance.now();
      const scriptBrowser = await launch();
      await handWritten(await signedIn(scriptBrowser, fixture), start, 'M-1004');
      coldScript.push(performance.now() - t0);
      await scriptBrowser.close();
    }
    line(
      `replay cold incl. browser start, median of ${COLD_ROUNDS}`,
      median(coldLift),
      median(coldScript),
      'ms',
    );

    // Throughput: 4 contexts, each running lookups in a loop, for the same number of lookups.
    // Each context first runs one of each (unmeasured): the first lookup in a fresh context pays
    // its documents' first scripts whichever path runs it. Then the paths take turns, two rounds
    // each, so neither always meets a machine the other just warmed or tired.
    const pages = await Promise.all([0, 1, 2, 3].map(() => signedIn(browser, fixture)));
    const per = Math.max(THROUGHPUT_MIN_PER, Math.ceil(N / 8));
    // A replay that fails under load is counted, not fatal: the rate is of answers given.
    const failures: string[] = [];
    const liftRound = () =>
      Promise.all(
        pages.map(async (worker, w) => {
          for (let index = 0; index < per; index++) {
            await replayCapability(
              capability,
              { memberId: IDS[(w + index) % IDS.length]! },
              { page: worker, evidenceDir },
            ).catch((error: { code?: string }) => failures.push(error.code ?? 'error'));
          }
        }),
      );
    const scriptRound = () =>
      Promise.all(
        pages.map(async (worker, w) => {
          for (let index = 0; index < per; index++)
            await handWritten(worker, start, IDS[(w + index) % IDS.length]!);
        }),
      );
    await Promise.all(
      pages.map(async (worker, w) => {
        await replayCapability(capability, { memberId: IDS[w]! }, { page: worker, evidenceDir });
        await handWritten(worker, start, IDS[w]!);
      }),
    );
    let liftMs = 0;
    let scriptMs = 0;
    for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
      let t0 = performance.now();
      await liftRound();
      liftMs += performance.now() - t0;
      t0 = performance.now();
      await scriptRound();
      scriptMs += performance.now() - t0;
    }
    const lookups = THROUGHPUT_ROUNDS * 4 * per;
    const liftRate = (lookups - failures.length) / (liftMs / 1000);
    const baseRate = lookups / (scriptMs / 1000);
    if (failures.length > 0)
      console.log(`replay throughput: ${failures.length} of ${lookups} failed (${failures.join(', ')})`);
    line('replay throughput, 4 contexts (replays/s)', liftRate, baseRate, '/s');
  } finally {
    await browser.close();
    await fixture.close();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
