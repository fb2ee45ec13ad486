/**
 * What a model reads of a page: Lift's observation (as `lift session observe` prints it)
 * against @playwright/mcp's `browser_snapshot` of the same page in the same run, both counted
 * in o200k tokens. Pages: the real-app bed (WordPress, MediaWiki, phpMyAdmin, Roundcube) and
 * the back-office fixture. Goal (issue 18): median ratio <= 0.25, no Lift page over 2,000.
 * Run: npm run bench -- observe   (needs the bed's Debian packages: scripts/setup.sh)
 * LIFT_BENCH_SHORT=1 observes the first page of each app only (bench/short.ts).
 * OBSERVE_DUMP=DIR also writes both sides' text of every page to DIR, to read side by side.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import type { Browser, Page } from 'playwright-core';
import { PageDriver } from '../src/discover/ui-driver.js';
import { startBackoffice } from '../src/fixtures/backoffice/index.js';
import { launchBrowser } from '../src/rungs/ui/browser.js';
import { parsePolicy } from '../src/rungs/ui/policy.js';
import { type Apps, startApp } from '../test/real-apps/bed.js';
import { signIn } from '../test/real-apps/sign-in.js';
import { type BenchPage, backofficePages, bedPages } from './observe-pages.js';
import { startPlaywrightMcp } from './playwright-mcp.js';
import { SHORT } from './short.js';

const CAP = 2_000;
const DUMP = process.env.OBSERVE_DUMP;
const BACKOFFICE_PASSWORD = 'bench-password-1';
const encoder = new Tiktoken(o200k);
const tokens = (text: string) => encoder.encode(text).length;

interface Row {
  page: BenchPage;
  lift: number;
  liftEstimate: number;
  truncated: boolean;
  mcp: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

/** Lift's side: one context per origin (the policy is per session), signed in from the shared storage state. */
async function liftObservation(browser: Browser, storageState: string, page: BenchPage, dir: string) {
  const context = await browser.newContext({ storageState });
  try {
    const tab = await context.newPage();
    const driver = await PageDriver.create({
      page: tab,
      policy: parsePolicy({ origins: [new URL(page.url).origin] }),
      bound: {},
      hiddenColumns: [],
      attended: false,
      outputDir: join(dir, 'lift-output'),
    });
    await tab.goto(page.url, { waitUntil: 'load', timeout: 30_000 });
    await settle(tab);
    const { observation } = await driver.observe({});
    return {
      text: observation.text,
      estimate: Math.ceil(observation.text.length / 4),
      truncated: observation.truncated,
    };
  } finally {
    await context.close();
  }
}

/** One page of each app: every app's sign-in and both sides' reading of it, in a short run. */
function firstOfEachOrigin(pages: BenchPage[]): BenchPage[] {
  const seen = new Set<string>();
  return pages.filter((page) => {
    const { origin } = new URL(page.url);
    if (seen.has(origin)) return false;
    seen.add(origin);
    return true;
  });
}

function print(rows: Row[]): void {
  const width = Math.max(...rows.map((row) => row.page.name.length));
  console.log(`${'page'.padEnd(width)}  lift (o200k)  lift (chars/4)  playwright-mcp  ratio`);
  for (const row of rows) {
    const cut = row.truncated ? ' cut' : '    ';
    console.log(
      `${row.page.name.padEnd(width)}  ${String(row.lift).padStart(12)}  ${String(row.liftEstimate).padStart(14)}  ${String(row.mcp).padStart(14)}  ${(row.lift / row.mcp).toFixed(2)}${cut}`,
    );
  }
  const largest = rows.reduce((a, b) => (b.lift > a.lift ? b : a));
  const over = rows.filter((row) => row.lift > CAP);
  const undercount = median(rows.map((row) => row.lift / row.liftEstimate));
  console.log(
    `\npages: ${rows.length}; median ratio lift/playwright-mcp: ${median(rows.map((r) => r.lift / r.mcp)).toFixed(2)} (goal <= 0.25)`,
  );
  console.log(
    `largest Lift page: ${largest.page.name}, ${largest.lift} tokens; over ${CAP}: ${over.length} (goal 0)`,
  );
  console.log(`median o200k / (chars/4) on Lift's pages: ${undercount.toFixed(2)}`);
}

const dir = mkdtempSync(join(tmpdir(), 'lift-bench-observe-'));
const started: Array<{ stop: () => Promise<void> }> = [];
let browser: Browser | undefined;
try {
  const t0 = Date.now();
  const apps = {} as Apps;
  apps.wordpress = await startApp('wordpress');
  apps.mediawiki = await startApp('mediawiki');
  apps.phpmyadmin = await startApp('phpmyadmin');
  apps.roundcube = await startApp('roundcube');
  started.push(...Object.values(apps));
  const backoffice = await startBackoffice({ password: BACKOFFICE_PASSWORD });
  started.push({ stop: () => backoffice.close() });
  console.log(`bed started in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  browser = await launchBrowser();
  const setup = await browser.newContext();
  for (const app of Object.values(apps)) await signIn(await setup.newPage(), app);
  const office = await setup.newPage();
  await office.goto(`${backoffice.url}/login`);
  await office.locator('input[name=user]').fill(backoffice.user);
  await office.locator('input[name=password]').fill(BACKOFFICE_PASSWORD);
  await Promise.all([office.waitForURL(/\/app/), office.locator('button[type=submit]').click()]);
  const storageState = join(dir, 'signed-in.json');
  await setup.storageState({ path: storageState });
  await setup.close();

  const mcp = await startPlaywrightMcp({ dir, storageState });
  started.push({ stop: () => mcp.close() });
  const rows: Row[] = [];
  const pages = [...bedPages(apps), ...backofficePages(backoffice.origin)];
  for (const page of SHORT ? firstOfEachOrigin(pages) : pages) {
    const lift = await liftObservation(browser, storageState, page, dir);
    const snapshot = await mcp.snapshot(page.url);
    if (DUMP) {
      mkdirSync(DUMP, { recursive: true });
      const file = page.name.replace(/[^a-z0-9]+/gi, '-');
      writeFileSync(join(DUMP, `${file}.lift.txt`), lift.text);
      writeFileSync(join(DUMP, `${file}.playwright-mcp.txt`), snapshot);
    }
    rows.push({
      page,
      lift: tokens(lift.text),
      liftEstimate: lift.estimate,
      truncated: lift.truncated,
      mcp: tokens(snapshot),
    });
  }
  print(rows);
} finally {
  await browser?.close();
  for (const service of started.reverse())
    await service.stop().catch((error) => console.error(String(error)));
  rmSync(dir, { recursive: true, force: true });
}
