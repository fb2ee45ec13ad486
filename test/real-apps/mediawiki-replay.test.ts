import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { pageFingerprint } from '../../src/capability/fingerprint.js';
import { LiftError } from '../../src/contract/errors.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type MediaWikiApp, startApp } from './bed.js';
import { INVENTORY_ROWS } from './mediawiki/seed-data.js';
import { discoverRegisterReplay, formatRecord, type Operation, type OperationRecord } from './operations.js';
import { signIn } from './sign-in.js';

// Replay on MediaWiki beyond the operations: a start page whose data rows change between
// discovery and replay, a renamed control, and steps that each start on the document the
// previous one loaded.
let app: MediaWikiApp;
let browser: Browser;
let page: Page;
const records: OperationRecord[] = [];
const evidence = mkdtempSync(join(tmpdir(), 'lift-mw-replay-'));

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('mediawiki'), launchBrowser()]);
  page = await (await browser.newContext()).newPage();
  await signIn(page, app);
});

afterAll(async () => {
  for (const record of records) console.log(formatRecord(record));
  await browser?.close();
  await app?.stop();
  rmSync(evidence, { recursive: true, force: true });
});

/** Saves a page's wikitext through the wiki's own edit form, as a person would. */
async function edit(title: string, text: string): Promise<void> {
  await page.goto(`${app.origin}/index.php?title=${encodeURIComponent(title)}&action=edit`);
  await page.locator('#wpTextbox1').fill(text);
  await page.locator('#wpSave').click();
  await page.waitForURL((url) => !url.search.includes('action=edit'));
}

/** The Server inventory's wikitext with these rows, in this order. */
function inventory(rows: Array<[number, string, string, string]>): string {
  return [
    '{| class="wikitable sortable"',
    '|+ Servers',
    '! Id !! Host !! Owner !! Status',
    ...rows.map(([id, host, owner, status]) => `|-\n| ${id} || ${host} || ${owner} || ${status}`),
    '|}',
  ].join('\n');
}

/** The owner of a server by id, made on the seeded page (its fingerprint is that page's). */
async function ownerLookup(): Promise<Capability> {
  await page.goto(`${app.origin}/index.php/Server_inventory`);
  const { fingerprint } = await pageFingerprint(page);
  const cell = (column: string) => ({
    frame: [],
    locator: { by: 'cell' as const, row: '{{input.id}}', key: 'Id', column, table: 'Servers' },
  });
  return {
    schemaVersion: 1,
    name: 'server_owner_lookup',
    intent: 'Look up the owner of a server by its id',
    inputs: [{ name: 'id', type: 'string' }],
    outputs: [{ name: 'owner', type: 'string' }],
    preconditions: { origin: app.origin, path: '/index.php/Server_inventory', fingerprint },
    steps: [{ version: 1, op: 'read', target: cell('Owner'), output: 'owner', expect: { kind: 'none' } }],
    outcomes: ['found', 'not_found'],
    dialogs: [],
    checkpoint: { target: cell('Id'), equals: { input: 'id' }, match: 'exact' },
    provenance: {
      explorer: 'scripted',
      runId: 'test',
      createdAt: new Date().toISOString(),
      liftVersion: LIFT_VERSION,
    },
  };
}

async function lookup(capability: Capability, id: string) {
  try {
    const result = await replayCapability(
      capability,
      { id },
      { page, evidenceDir: evidence, effectClass: 'read' },
    );
    return { result, error: undefined };
  } catch (error) {
    if (!(error instanceof LiftError)) throw error;
    return { result: undefined, error };
  }
}

describe('the start-page fingerprint on a real wiki', () => {
  it('passes after rows are added, removed and reordered, and fails after a control is renamed', async () => {
    await app.reset();
    await signIn(page, app);
    const capability = await ownerLookup();
    expect((await lookup(capability, '3')).result?.outputs.owner).toBe('Ops');

    // Two servers added, id 12 retired from the table, and the rest in reverse order.
    const rows = [
      ...INVENTORY_ROWS.filter(([id]) => id !== 12),
      [40, 'cache-1', 'Bo', 'Active'],
      [41, 'cache-2', 'Ops', 'Active'],
    ].reverse() as Array<[number, string, string, string]>;
    await edit('Server inventory', inventory(rows));
    for (const [id, owner] of [
      ['40', 'Bo'],
      ['3', 'Ops'],
      ['32', 'Jdoe'],
    ]) {
      const { result, error } = await lookup(capability, id!);
      expect(error?.message).toBeUndefined();
      expect(result?.outcome).toBe('found');
      expect(result?.outputs.owner).toBe(owner);
    }
    const retired = await lookup(capability, '12');
    expect(retired.error?.message).toBeUndefined();
    expect(retired.result?.outcome).toBe('not_found');

    // The search's Go button renamed (an interface message): the screen is not the one discovered.
    await edit('MediaWiki:Searcharticle', 'Open page');
    const renamed = await lookup(capability, '3');
    expect(renamed.result).toBeUndefined();
    expect(renamed.error?.code).toBe('SURFACE_CHANGED');
    expect(JSON.stringify(renamed.error?.details?.skeleton)).toContain('Open page');
  }, 240_000);
});

/**
 * The revision history heading of a page found through the search box: Enter loads the
 * article, then its "View history" link is clicked on that new document, in one act batch.
 */
const historyHeading: Operation<MediaWikiApp> = {
  name: 'mediawiki_history_heading',
  intent: 'Find a wiki page with the search box and return the heading of its revision history',
  effect: 'read',
  inputs: [{ name: 'title', type: 'string' }],
  outputs: [{ name: 'heading', type: 'string' }],
  startPath: '/index.php/Main_Page',
  bound: { title: 'Onboarding handbook' },
  async explore(moves) {
    const start = await moves.observe();
    const box = moves.ref(start, 'searchbox', /Search [^"]*/);
    const results = await moves.act([
      { op: 'fill', target: box, value: { input: 'title' } },
      { op: 'press', key: 'Enter', target: box },
      { op: 'click', target: { locator: { by: 'role', role: 'link', name: 'View history' } } },
    ]);
    expect(
      results.map((result) => result.status),
      JSON.stringify(results),
    ).toEqual(['executed', 'executed', 'executed']);
    const history = await moves.observe();
    expect(history).toContain('# ⟦input:title⟧: Revision history');
    const heading = { locator: { by: 'role', role: 'heading', name: '{{input.title}}: Revision history' } };
    await moves.act([{ op: 'read', target: heading, as: 'heading' }]);
    const done = await moves.complete({
      outputs: ['heading'],
      checkpoint: { target: heading, input: 'title', match: 'contains' },
    });
    expect(done.ok, JSON.stringify(done)).toBe(true);
  },
  cases: ['Server inventory', 'Tools', 'Cannot log in'].map((title) => ({
    inputs: { title },
    check: async (_bed, result) => result.outputs.heading === `${title}: Revision history`,
  })),
};

describe('steps that follow each other on a real wiki', () => {
  it('presses Enter in the search box, then clicks a link of the page it loaded, in one batch', async () => {
    const { record, log, capability } = await discoverRegisterReplay(app, browser, historyHeading);
    records.push(record);
    expect(record.failures, JSON.stringify(log.slice(0, 3), null, 1).slice(0, 4000)).toEqual([]);
    expect(capability?.steps.map((step) => step.op)).toEqual(['fill', 'press', 'click', 'read']);
    expect(record.correct).toBe(3);
  }, 360_000);
});
