/**
 * Lookups on the real-app test bed: Lift's warm replay against a hand-written playwright-core
 * script doing the same lookup, interleaved in one run (the machine is shared: drift hits all
 * alike). The script runs twice: on Lift's own page, where it pays Lift's request guard too
 * (every request paused and checked), and on a signed-in context of its own with no guard, as a
 * person's script would. Prints per lookup: replays correct / tried, outcomes seen, median and
 * p95 of each, and both ratios (goal: warm <= 1.25x the script of its own on every app).
 *   MediaWiki   the owner of a server by id (a cell of the Server inventory's table)
 *   WordPress   a user's email by login (a cell of the Users list)
 *   phpMyAdmin  a customer's email by id (a cell of the Browse table, its first header spanning
 *               the four row actions)
 *   Roundcube   a message's sender by subject (its link in the list, the preview frame's Details,
 *               the value beside "From"), three steps on a page that builds its list after load
 *   node --import tsx bench/real-apps.bench.ts [app...]   (BENCH_REPLAYS=N, default 20; BENCH_TRACE=1)
 *   LIFT_BENCH_SHORT=1: per lookup two replays and no warm-up, one found and one not found where
 *   the lookup has a not-found case (bench/short.ts)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Capability, Step } from '../src/capability/capability.js';
import { settledFingerprint } from '../src/capability/fingerprint.js';
import { LIFT_VERSION } from '../src/contract/version.js';
import { replayCapability } from '../src/replay/engine.js';
import { launchBrowser } from '../src/rungs/ui/browser.js';
import type { Target } from '../src/rungs/ui/locator.js';
import { type AppName, startApp } from '../test/real-apps/bed.js';
import { INVENTORY_ROWS } from '../test/real-apps/mediawiki/seed-data.js';
import { CUSTOMERS } from '../test/real-apps/phpmyadmin/shop-data.js';
import { ALICE, SEED_MESSAGES } from '../test/real-apps/roundcube/messages.js';
import { signIn } from '../test/real-apps/sign-in.js';
import { WORDPRESS_USERS } from '../test/real-apps/wordpress/seed-data.js';
import { iterations, SHORT, setting } from './short.js';

const N = setting('BENCH_REPLAYS', 20, 2);
/** Rounds not counted: the first documents of a context cost more on both sides. */
const WARM_ROUNDS = iterations(2, 0);
/** BENCH_TRACE=1 prints when each replay event came, for three replays per lookup. */
const TRACE = process.env.BENCH_TRACE === '1';

/** One lookup of the bed: the capability's one read, the script a person would write, and inputs with their answers. */
interface Lookup {
  app: AppName;
  name: string;
  startPath: string;
  input: string;
  /** The target read and the one the checkpoint compares, for an input. */
  read: Target;
  checkpoint: Target;
  /** Clicks before the read, each with the target that shows it worked (none: the read is all). */
  clicks?: Array<{ target: Target; shows: Target }>;
  match: 'exact' | 'contains';
  script: (page: Page, origin: string, value: string) => Promise<string | undefined>;
  /** Inputs in turn, with the value expected (undefined: the record does not exist). */
  cases: Array<[string, string | undefined]>;
}

const INBOX = '/?_task=mail&_mbox=INBOX';

const LOOKUPS: Lookup[] = [
  {
    app: 'mediawiki',
    name: 'server_owner_lookup',
    startPath: '/index.php/Server_inventory',
    input: 'serverId',
    read: cell('{{input.serverId}}', 'Owner', { key: 'Id', table: 'Servers' }),
    checkpoint: cell('{{input.serverId}}', 'Id', { key: 'Id', table: 'Servers' }),
    match: 'exact',
    async script(page, origin, id) {
      await page.goto(`${origin}/index.php/Server_inventory`);
      const row = page
        .getByRole('table', { name: 'Servers' })
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: id, exact: true }) });
      if ((await row.count()) !== 1) return undefined;
      return ((await row.getByRole('cell').nth(2).textContent()) ?? '').trim();
    },
    cases: [
      ...INVENTORY_ROWS.map(([id, , owner]): [string, string] => [String(id), owner]),
      ['99', undefined],
    ],
  },
  {
    app: 'wordpress',
    name: 'user_email_lookup',
    startPath: '/wp-admin/users.php',
    input: 'login',
    read: cell('{{input.login}}', 'Email', { key: 'Username' }),
    checkpoint: cell('{{input.login}}', 'Username', { key: 'Username' }),
    match: 'contains',
    async script(page, origin, login) {
      await page.goto(`${origin}/wp-admin/users.php`);
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: login, exact: true }) });
      if ((await row.count()) !== 1) return undefined;
      return ((await row.locator('td[data-colname="Email"]').textContent()) ?? '').trim();
    },
    cases: [
      ...WORDPRESS_USERS.map((user): [string, string] => [user.login, user.email]),
      ['nobody', undefined],
    ],
  },
  {
    app: 'phpmyadmin',
    name: 'customer_email_lookup',
    startPath: '/index.php?route=/sql&db=shop&table=customers',
    input: 'id',
    read: cell('{{input.id}}', 'email', { key: 'id' }),
    checkpoint: cell('{{input.id}}', 'id', { key: 'id' }),
    match: 'exact',
    async script(page, origin, id) {
      await page.goto(`${origin}/index.php?route=/sql&db=shop&table=customers`);
      // Where each column starts, counting the colspan of the header over the row actions.
      return page.locator('table.table_results').evaluate((table: HTMLTableElement, wanted: string) => {
        const at: Record<string, number> = {};
        let position = 0;
        for (const header of Array.from(table.tHead?.rows[0]?.cells ?? [])) {
          const column = header.getAttribute('data-column');
          if (column) at[column] = position;
          position += header.colSpan;
        }
        const rows = Array.from(table.tBodies[0]?.rows ?? []).filter(
          (row) => row.cells[at.id ?? -1]?.textContent?.trim() === wanted,
        );
        return rows.length === 1
          ? (rows[0]?.cells[at.email ?? -1]?.textContent?.trim() ?? undefined)
          : undefined;
      }, id);
    },
    cases: [
      ...CUSTOMERS.map((customer): [string, string] => [String(customer.id), customer.email]),
      ['999', undefined],
    ],
  },
  {
    app: 'roundcube',
    name: 'sender_by_subject',
    startPath: INBOX,
    input: 'subject',
    clicks: [
      {
        target: { frame: [], locator: role('link', '{{input.subject}}') },
        shows: inPreview(role('link', 'Details', false)),
      },
      { target: inPreview(role('link', 'Details', false)), shows: inPreview({ by: 'pair', label: 'From' }) },
    ],
    read: inPreview({ by: 'pair', label: 'From' }),
    checkpoint: inPreview(role('heading', '{{input.subject}}', false)),
    match: 'contains',
    async script(page, origin, subject) {
      await page.goto(`${origin}${INBOX}`);
      // The list is asked for after load: its first row says it is there.
      const list = page.getByRole('table', { name: 'Email Messages Listing' });
      await list.locator('tbody tr').first().waitFor();
      const link = list.getByRole('link', { name: subject, exact: true });
      if ((await link.count()) !== 1) return undefined;
      await link.click();
      const preview = page.frameLocator('iframe[title="Message preview"]');
      // The frame shows the message before it is read: the previous one may still be there.
      await preview.getByRole('heading', { name: subject }).waitFor();
      const from = preview.locator('.header-summary .rcmContactAddress').first();
      return ((await from.textContent()) ?? '').trim();
    },
    cases: SEED_MESSAGES.filter((message) => message.to === ALICE.user && message.folder === 'INBOX').map(
      (message): [string, string] => [message.subject, message.from.replace(/\s*<.*$/, '')],
    ),
  },
];

function role(name: string, accessibleName: string, exact = true): Target['locator'] {
  return { by: 'role', role: name, name: accessibleName, exact };
}

/** A target in Roundcube's message preview frame. */
function inPreview(locator: Target['locator']): Target {
  return { frame: ['Message preview'], locator };
}

function cell(row: string, column: string, where: { key?: string; table?: string }): Target {
  return { frame: [], locator: { by: 'cell', row, column, ...where } };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function capabilityOf(
  lookup: Lookup,
  origin: string,
  start: { fingerprint: string; first: string | undefined },
): Capability {
  const { fingerprint, first } = start;
  return {
    schemaVersion: 1,
    name: lookup.name,
    intent: `Look up ${lookup.name.replace(/_/g, ' ')}`,
    inputs: [{ name: lookup.input, type: 'string' }],
    outputs: [{ name: 'value', type: 'string' }],
    // As discovery records them: the built page's, and the one read at the load event if it differs.
    preconditions: {
      origin,
      path: lookup.startPath,
      fingerprint,
      ...(first && first !== fingerprint ? { loadFingerprint: first } : {}),
    },
    steps: [
      ...(lookup.clicks ?? []).map(
        ({ target, shows }): Step => ({
          version: 1,
          op: 'click',
          target,
          expect: { kind: 'visible', target: shows },
        }),
      ),
      { version: 1, op: 'read', target: lookup.read, output: 'value', expect: { kind: 'none' } },
    ],
    outcomes: ['found', 'not_found'],
    dialogs: [],
    checkpoint: { target: lookup.checkpoint, equals: { input: lookup.input }, match: lookup.match },
    provenance: {
      explorer: 'scripted',
      runId: 'bench',
      createdAt: '2026-12-02T00:00:00.000Z',
      liftVersion: LIFT_VERSION,
    },
  };
}

async function measure(lookup: Lookup, browsers: Browsers, evidence: string): Promise<void> {
  const app = await startApp(lookup.app);
  const context = await browsers.lift.newContext();
  const plainContext = await browsers.plain.newContext();
  try {
    const page = await context.newPage();
    await signIn(page, app);
    const plain = await plainContext.newPage();
    await signIn(plain, app);
    await page.goto(`${app.origin}${lookup.startPath}`);
    const capability = capabilityOf(lookup, app.origin, await settledFingerprint(page));
    const lift: number[] = [];
    const script: number[] = [];
    const plainScript: number[] = [];
    const outcomes = new Map<string, number>();
    const byOutcome = new Map<string, number[]>();
    let correct = 0;
    // A short run asks the first case and the last (the record that does not exist, where there is one).
    const cases = SHORT ? [lookup.cases[0]!, lookup.cases.at(-1)!] : lookup.cases;
    for (let round = 0; round < N + WARM_ROUNDS; round++) {
      const [value, expected] = cases[round % cases.length]!;
      const t0 = performance.now();
      const trace: string[] = [];
      const result = await replayCapability(
        capability,
        { [lookup.input]: value },
        {
          page,
          evidenceDir: evidence,
          effectClass: 'read',
          ...(TRACE
            ? { emit: (event) => trace.push(`${(performance.now() - t0).toFixed(0)} ${event.type}`) }
            : {}),
        },
      ).catch((error: { code?: string; message?: string }) => ({
        outcome: error.code ?? 'error',
        outputs: {} as Record<string, unknown>,
        message: error.message,
      }));
      const t1 = performance.now();
      const scripted = await lookup.script(page, app.origin, value);
      const t2 = performance.now();
      const plainly = await lookup.script(plain, app.origin, value);
      const t3 = performance.now();
      if (TRACE && round >= WARM_ROUNDS && round < WARM_ROUNDS + 3)
        console.log(`  trace ${value}: ${trace.join(', ')}, end ${(t1 - t0).toFixed(0)}`);
      if (round < WARM_ROUNDS) continue;
      lift.push(t1 - t0);
      script.push(t2 - t1);
      plainScript.push(t3 - t2);
      outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
      byOutcome.set(result.outcome, [...(byOutcome.get(result.outcome) ?? []), t1 - t0]);
      const right =
        expected !== undefined
          ? result.outcome === 'found' &&
            result.outputs.value === expected &&
            scripted === expected &&
            plainly === expected
          : result.outcome === 'not_found' && scripted === undefined && plainly === undefined;
      if (right) correct++;
      else
        console.log(
          `  wrong on ${value}: ${JSON.stringify({ outcome: result.outcome, outputs: result.outputs, scripted, plainly, message: 'message' in result ? result.message : undefined })}`,
        );
    }
    const line = (values: number[]) =>
      `median ${percentile(values, 0.5).toFixed(1)} ms, p95 ${percentile(values, 0.95).toFixed(1)} ms`;
    console.log(`${lookup.app} ${lookup.name}: replays correct ${correct}/${lift.length}`);
    console.log(
      `  outcomes: ${[...outcomes].map(([name, count]) => `${name} ${count} (median ${percentile(byOutcome.get(name) ?? [], 0.5).toFixed(0)} ms)`).join(', ')}`,
    );
    const ratios = (baseline: number[]) =>
      `${(percentile(lift, 0.5) / percentile(baseline, 0.5)).toFixed(2)}x median, ${(percentile(lift, 0.95) / percentile(baseline, 0.95)).toFixed(2)}x p95`;
    console.log(`  lift replay (warm):             ${line(lift)}`);
    console.log(`  script on its own context:      ${line(plainScript)}`);
    console.log(`  script on Lift's guarded page:  ${line(script)}`);
    console.log(`  ratio to the script on its own context: ${ratios(plainScript)} (goal <= 1.25x)`);
    console.log(`  ratio to the script on the guarded page: ${ratios(script)}`);
    console.log(
      `  machine load: ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await context.close();
    await plainContext.close();
    await app.stop();
  }
}

/**
 * Lift's browser and the plain script's: a browser Lift guards pauses every request of every
 * context at its browser line, and the script of its own must pay nothing of Lift's.
 */
interface Browsers {
  lift: Browser;
  plain: Browser;
}

async function main(): Promise<void> {
  const chosen = process.argv.slice(2);
  const browsers: Browsers = { lift: await launchBrowser(), plain: await launchBrowser() };
  const evidence = mkdtempSync(join(tmpdir(), 'lift-bench-real-'));
  try {
    for (const lookup of LOOKUPS) {
      if (chosen.length === 0 || chosen.includes(lookup.app)) await measure(lookup, browsers, evidence);
    }
  } finally {
    await browsers.lift.close();
    await browsers.plain.close();
    rmSync(evidence, { recursive: true, force: true });
  }
}

await main();
