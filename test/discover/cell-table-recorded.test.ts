import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { ScriptedExplorer } from '../../src/discover/explorers/scripted.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { type PagesServer, servePages } from '../support/pages-server.js';
import { tempDir } from '../support/temp.js';
import { discoverOnOwnPage } from './own-page-discovery.js';

// Two tables with the same columns on one page: the servers in use, and below them the retired
// ones (under their own heading, with a column more). Discovery reads an owner in the first;
// on another input the row is only in the second. A replay that answered from it gave a
// retired server's owner as the answer (issue 41 saw one under --layout-tolerant).
const PAGE = `<!doctype html><title>Inventory</title><main><h1>Inventory</h1>
<h2>Servers</h2>
<table><tr><th>Id</th><th>Host</th><th>Owner</th></tr>
<tr><td>2</td><td>web1</td><td>Jane</td></tr><tr><td>3</td><td>db1</td><td>Bob</td></tr></table>
<h2>Retired servers</h2>
<table><tr><th>Id</th><th>Host</th><th>Owner</th><th>Retired on</th></tr>
<tr><td>12</td><td>old1</td><td>Carol</td><td>2025-01-01</td></tr></table>
<h2>Spares</h2>
<table><tr><th>Id</th><th>Host</th><th>Owner</th></tr><tr><td>23</td><td>spare1</td><td>Dan</td></tr></table>
</main>`;

let server: PagesServer;
let browser: Browser;
let capability: Capability;
const evidence = tempDir('lift-cell-table-');

const ownerCell: Target = {
  frame: [],
  locator: { by: 'cell', key: 'Id', row: '{{input.id}}', column: 'Owner' },
};

beforeAll(async () => {
  server = await servePages(() => ({ body: PAGE }));
  browser = await launchBrowser();
  const explorer = new ScriptedExplorer({
    explorer: 'scripted',
    calls: [
      { tool: 'observe', args: {} },
      { tool: 'act', args: { actions: [{ op: 'read', target: ownerCell, as: 'owner' }] } },
      {
        tool: 'complete',
        args: {
          outputs: ['owner'],
          checkpoint: {
            target: { frame: [], locator: { by: 'cell', key: 'Id', row: '{{input.id}}', column: 'Id' } },
            input: 'id',
          },
        },
      },
    ],
  });
  const { capability: made } = await discoverOnOwnPage(
    browser,
    server.origin,
    {
      name: 'server_owner_read',
      intent: "Read a server's owner from the inventory",
      inputs: [{ name: 'id', type: 'string' }],
      outputs: [{ name: 'owner', type: 'string' }],
      bound: { id: '2' },
      startUrl: `${server.origin}/inventory`,
      outcomes: ['found', 'not_found'],
    },
    explorer,
  );
  if (!made) throw new Error(`discovery did not complete: ${JSON.stringify(explorer.replies.at(-1))}`);
  capability = made;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  evidence.remove();
});

async function replay(id: string) {
  const page = await browser.newPage();
  try {
    return await replayCapability(
      capability,
      { id },
      { page, layoutTolerant: true, evidenceDir: evidence.path, stepTimeoutMs: 2_000 },
    );
  } finally {
    await page.close();
  }
}

describe('a cell read and the table it reads', () => {
  it('records the table by the heading above it and its header set, for the read and the checkpoint', () => {
    const read = capability.steps.find((step) => step.op === 'read');
    const table = { table: 'Servers', headers: ['Id', 'Host', 'Owner'] };
    expect(read?.op === 'read' && read.target.locator).toMatchObject(table);
    expect(capability.checkpoint.target.locator).toMatchObject(table);
  });

  it('answers from that table on another input', { timeout: 60_000 }, async () => {
    expect(await replay('3')).toMatchObject({ outcome: 'found', outputs: { owner: 'Bob' } });
  });

  it('never answers from another table that has the row, under --layout-tolerant too', {
    timeout: 60_000,
  }, async () => {
    // The servers table has no such row: the answer is that, never the other table's owner.
    for (const id of ['12', '23'])
      expect(await replay(id)).toMatchObject({ outcome: 'not_found', outputs: {} });
  });
});
