/**
 * Lookups on the real-app test bed: Lift's warm replay against a hand-written playwright-core
 * script doing the same lookup on the same warm, signed-in context, interleaved in one run.
 * Prints per lookup: replays correct / tried, outcomes seen, median and p95 of both, and the
 * ratio (goal: warm <= 1.25x). Today: MediaWiki's "owner of a server by id" (a table cell of
 * a page); the other apps' lookups come with their discovered capabilities (issue 18).
 *   node --import tsx bench/real-apps.bench.ts   (BENCH_REPLAYS=N, default 20)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Capability } from '../src/capability/capability.js';
import { pageFingerprint } from '../src/capability/fingerprint.js';
import { LIFT_VERSION } from '../src/contract/version.js';
import { replayCapability } from '../src/replay/engine.js';
import { launchBrowser } from '../src/rungs/ui/browser.js';
import { startApp } from '../test/real-apps/bed.js';
import { INVENTORY_ROWS } from '../test/real-apps/mediawiki/seed-data.js';
import { signIn } from '../test/real-apps/sign-in.js';

const N = Number(process.env.BENCH_REPLAYS ?? 20);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** The owner of a server by id, read from the "Servers" table of the Server inventory page. */
function serverOwnerCapability(origin: string, fingerprint: string): Capability {
  const cell = (row: string, column: string) => ({
    frame: [],
    locator: { by: 'cell' as const, row, column, table: 'Servers' },
  });
  return {
    schemaVersion: 1,
    name: 'server_owner_lookup',
    intent: 'Look up the owner of a server by its id',
    inputs: [{ name: 'serverId', type: 'string' }],
    outputs: [{ name: 'owner', type: 'string' }],
    preconditions: { origin, path: '/index.php/Server_inventory', fingerprint },
    steps: [
      {
        version: 1,
        op: 'read',
        target: cell('{{input.serverId}}', 'Owner'),
        output: 'owner',
        expect: { kind: 'none' },
      },
    ],
    outcomes: ['found', 'not_found'],
    dialogs: [],
    checkpoint: { target: cell('{{input.serverId}}', 'Id'), equals: { input: 'serverId' }, match: 'exact' },
    provenance: {
      explorer: 'scripted',
      runId: 'bench',
      createdAt: '2026-12-02T00:00:00.000Z',
      liftVersion: LIFT_VERSION,
    },
  };
}

/** The same lookup as a person would script it with playwright-core. */
async function scriptedOwner(page: Page, origin: string, id: string): Promise<string | undefined> {
  await page.goto(`${origin}/index.php/Server_inventory`);
  const row = page
    .getByRole('table', { name: 'Servers' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: id, exact: true }) });
  if ((await row.count()) !== 1) return undefined;
  return ((await row.getByRole('cell').nth(2).textContent()) ?? '').trim();
}

async function main(): Promise<void> {
  const [app, browser] = await Promise.all([startApp('mediawiki'), launchBrowser()]);
  const evidence = mkdtempSync(join(tmpdir(), 'lift-bench-real-'));
  try {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, app);
    await page.goto(`${app.origin}/index.php/Server_inventory`);
    const capability = serverOwnerCapability(app.origin, (await pageFingerprint(page)).fingerprint);
    const ids = [...INVENTORY_ROWS.map(([id]) => String(id)), '99'];
    const owners = new Map(INVENTORY_ROWS.map(([id, , owner]) => [String(id), owner]));
    const lift: number[] = [];
    const script: number[] = [];
    const outcomes = new Map<string, number>();
    let correct = 0;
    for (let round = 0; round < N + 2; round++) {
      const id = ids[round % ids.length]!;
      const t0 = performance.now();
      const result = await replayCapability(
        capability,
        { serverId: id },
        { page, evidenceDir: evidence },
      ).catch((error: { code?: string }) => ({
        outcome: error.code ?? 'error',
        outputs: {} as Record<string, unknown>,
      }));
      const t1 = performance.now();
      const expected = await scriptedOwner(page, app.origin, id);
      const t2 = performance.now();
      if (round < 2) continue; // warm-up: the first documents of a context cost more on both sides
      lift.push(t1 - t0);
      script.push(t2 - t1);
      outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
      const right = owners.has(id)
        ? result.outcome === 'found' && result.outputs.owner === owners.get(id) && expected === owners.get(id)
        : result.outcome === 'not_found' && expected === undefined;
      if (right) correct++;
    }
    const line = (values: number[]) =>
      `median ${percentile(values, 0.5).toFixed(1)} ms, p95 ${percentile(values, 0.95).toFixed(1)} ms`;
    console.log(`mediawiki server_owner_lookup: replays correct ${correct}/${lift.length}`);
    console.log(`  outcomes: ${[...outcomes].map(([name, count]) => `${name} ${count}`).join(', ')}`);
    console.log(`  lift replay (warm):  ${line(lift)}`);
    console.log(`  playwright script:   ${line(script)}`);
    console.log(
      `  ratio (median): ${(percentile(lift, 0.5) / percentile(script, 0.5)).toFixed(2)}x (goal <= 1.25x); p95 ratio ${(percentile(lift, 0.95) / percentile(script, 0.95)).toFixed(2)}x`,
    );
    console.log(
      `  machine load: ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await browser.close();
    await app.stop();
    rmSync(evidence, { recursive: true, force: true });
  }
}

await main();
