/**
 * The structured-UI rung on the back-office fixture, each figure against a baseline measured
 * in the same run:
 *   - observation size per page (tokens = chars / 4) against the page's full aria snapshot
 *     (what a plain snapshot tool returns);
 *   - act + verify latency (fill + click, judged by reading state back) against the same
 *     Playwright calls with no verification;
 *   - a session start from the warm pool against a cold browser start.
 * Run: node --import tsx bench/ui.bench.ts   (LIFT_BENCH_SHORT=1: one page, one act, one start; bench/short.ts)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBackoffice } from '../src/fixtures/backoffice/index.js';
import { BrowserPool, launchBrowser, parsePolicy, UiSession } from '../src/rungs/ui/index.js';
import { iterations, SHORT } from './short.js';

const PASSWORD = 'bench-password-1';
const WORKSPACE = ['Workspace'];
const ACTS = iterations(6, 1);
const STARTS = iterations(2, 1);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function line(name: string, lift: number, baseline: number, unit: string): void {
  const ratio = baseline === 0 ? 0 : lift / baseline;
  console.log(
    `${name}: lift ${lift.toFixed(0)}${unit}, baseline ${baseline.toFixed(0)}${unit}, ratio ${ratio.toFixed(2)}`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'lift-ui-bench-'));
const server = await startBackoffice({ password: PASSWORD });
const pool = await BrowserPool.start({ profilesDir: join(dir, 'profiles'), warm: 2 });
const open = () =>
  UiSession.open({
    pool,
    profile: 'bench',
    outputDir: join(dir, 'out'),
    policy: parsePolicy({ origins: [server.origin] }),
    startUrl: `${server.url}/app`,
    signIn: { user: server.user, passwordSecret: 'password' },
    secret: () => PASSWORD,
    inputs: { memberId: 'M-1002' },
    hiddenColumns: ['Balance'],
    quietMs: 400,
  });

try {
  const session = await open();
  if ((await session.state()) === 'auth_required') await session.signIn();

  // 1. Observation size per page.
  const allPages: Array<[string, string]> = [
    ['lookup', '/app/members?scenario=normal'],
    ['member', '/app/members/M-1001'],
    ['member (reversed)', '/app/members/M-1002?layout=reversed'],
    ['tickets', '/app/tickets?layout=normal'],
    ['ticket', '/app/tickets/T-000101'],
    ['member (500-row table)', '/app/members/M-1001?scenario=long_table'],
    ['tickets (500 rows)', '/app/tickets?scenario=long_table'],
    ['not found', '/app/members/lookup?id=M-0000&scenario=normal'],
  ];
  const pages = SHORT ? allPages.slice(0, 1) : allPages;
  const sizes: number[] = [];
  for (const [name, path] of pages) {
    await session.act([{ op: 'navigate', url: path, frame: WORKSPACE }]);
    const observation = await session.observe();
    sizes.push(observation.tokens);
    line(`observation ${name} (tokens)`, observation.tokens, observation.fullTokens, '');
  }
  console.log(`observation median: ${median(sizes)} tokens, worst: ${Math.max(...sizes)} tokens`);
  await session.act([{ op: 'navigate', url: '/app/members?scenario=normal', frame: WORKSPACE }]);

  // 2. Act + verify latency: fill the member ID and click Look up, then go back.
  const liftTimes: number[] = [];
  for (let run = 0; run < ACTS; run++) {
    const started = Date.now();
    await session.act([
      {
        op: 'fill',
        target: { frame: WORKSPACE, locator: { by: 'role', role: 'textbox', name: 'Member ID' } },
        value: 'M-1003',
      },
    ]);
    liftTimes.push(Date.now() - started);
    const clicked = Date.now();
    const result = await session.act([
      { op: 'click', target: { frame: WORKSPACE, locator: { by: 'role', role: 'button', name: 'Look up' } } },
    ]);
    if (result.steps[0]?.effect !== 'changed')
      throw new Error(`lookup did not change the page: ${result.steps[0]?.message}`);
    liftTimes.push(Date.now() - clicked);
    await session.act([{ op: 'navigate', url: '/app/members', frame: WORKSPACE }]);
  }
  const frame = session.page.frameLocator('iframe[title="Workspace"]');
  const plainTimes: number[] = [];
  for (let run = 0; run < ACTS; run++) {
    let started = Date.now();
    await frame.getByRole('textbox', { name: 'Member ID', exact: true }).fill('M-1003');
    plainTimes.push(Date.now() - started);
    started = Date.now();
    await frame.getByRole('button', { name: 'Look up', exact: true }).click();
    await frame.getByRole('heading', { name: 'Member M-1003' }).waitFor();
    plainTimes.push(Date.now() - started);
    await session.page.frames()[1]?.goto(`${server.url}/app/members`);
  }
  line('act+verify median (ms)', median(liftTimes), median(plainTimes), ' ms');
  line('act+verify worst (ms)', Math.max(...liftTimes), Math.max(...plainTimes), ' ms');
  await session.close();

  // 3. Warm pool context against a cold browser start, each to the first page shown.
  const warmTimes: number[] = [];
  const coldTimes: number[] = [];
  for (let run = 0; run < STARTS; run++) {
    let started = Date.now();
    const warm = await open();
    warmTimes.push(Date.now() - started);
    await warm.close();
    started = Date.now();
    const browser = await launchBrowser();
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${server.url}/login`);
    coldTimes.push(Date.now() - started);
    await browser.close();
  }
  line('session start (ms)', median(warmTimes), median(coldTimes), ' ms');
} finally {
  await pool.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
