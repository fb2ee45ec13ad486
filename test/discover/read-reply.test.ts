import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityStore } from '../../src/capability/store.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { openDiscovery } from '../../src/discover/run.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { parsePolicy } from '../../src/rungs/ui/policy.js';
import { openStore, type Store } from '../../src/store/store.js';
import { type PagesServer, servePages } from '../support/pages-server.js';
import { tempDir } from '../support/temp.js';

// Servers by id: the owner is an email, the host an identifier, the id the bound key.
const PAGE = `<!doctype html><title>Servers</title><h1>Servers</h1>
<table><thead><tr><th>Id</th><th>Host</th><th>Owner</th><th>Note</th></tr></thead><tbody>
<tr><td>2</td><td>web-02</td><td>web-team@example.org</td><td>Retired</td></tr>
<tr><td>3</td><td>db-03</td><td>dba-oncall@example.org</td><td>Primary, see #3 runbook</td></tr>
</tbody></table>`;

const dir = tempDir('lift-read-reply-');
let server: PagesServer;
let browser: Browser;
let store: Store;

beforeAll(async () => {
  server = await servePages(() => ({ body: PAGE }));
  browser = await launchBrowser();
  store = openStore(dir.path, {});
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await store?.close();
  dir.remove();
});

const cell = (column: string) => ({ locator: { by: 'cell', row: '{{input.id}}', column, key: 'Id' } });

/** One discovery session on the servers page; reads each column asked for, one act each. */
async function readReplies(reads: Array<{ column: string; as: string }>, showReads?: boolean) {
  const context = await browser.newContext();
  try {
    const { session, driver } = await openDiscovery({
      store,
      capabilities: new CapabilityStore(store.capabilities),
      page: await context.newPage(),
      policy: parsePolicy({ origins: [server.origin], ...(showReads === undefined ? {} : { showReads }) }),
      task: {
        name: 'server_owner',
        intent: 'Read the owner of a server by its id',
        inputs: [{ name: 'id', type: 'string' }],
        outputs: [
          { name: 'owner', type: 'string' },
          { name: 'cores', type: 'integer' },
        ],
        bound: { id: '3' },
        startUrl: `${server.origin}/servers`,
      },
      explorer: 'scripted',
      liftVersion: LIFT_VERSION,
    });
    const replies: Array<Record<string, unknown>> = [];
    await session.call('observe', {});
    for (const { column, as } of reads) {
      const reply = await session.call('act', { actions: [{ op: 'read', target: cell(column), as }] });
      replies.push((reply as unknown as { results: Array<Record<string, unknown>> }).results[0]!);
    }
    session.abandon('test over');
    driver.detach();
    return replies;
  } finally {
    await context.close();
  }
}

describe('a read reply', () => {
  it('tells the kind, length and fit of the value read, never the value', async () => {
    const [owner, key, note, host, cores] = await readReplies([
      { column: 'Owner', as: 'owner' },
      { column: 'Id', as: 'owner' },
      { column: 'Note', as: 'owner' },
      { column: 'Host', as: 'cores' },
      { column: 'Owner', as: 'cores' },
    ]);
    expect(owner).toMatchObject({
      status: 'executed',
      read: { kind: 'email address', length: 22, fits: true },
    });
    expect(owner!.message).toBe(
      'Read owner: an email address, 22 characters; fits string. The value goes to the task, not to you.',
    );
    // The key cell read by mistake: the reply says it is the bound input itself.
    expect(key).toMatchObject({ status: 'executed', read: { kind: 'whole number', same_as: 'id' } });
    expect(key!.message).toContain('It is the bound input id itself');
    expect(note).toMatchObject({ read: { kind: 'text', length: 23, holds: ['id'] } });
    expect(note!.message).toContain('text of 4 words, 23 characters, holding the bound input id');
    // A host name holds digits an integer is parsed from: stored, and the reply says how loosely.
    expect(host).toMatchObject({ status: 'executed', read: { kind: 'identifier', length: 5, fits: true } });
    expect(host!.message).toContain('fits integer only once the text around its digits is dropped');
    // An email is no integer: refused, and the reply says what it was instead.
    expect(cores).toMatchObject({ status: 'rejected', read: { kind: 'email address', fits: false } });
    expect(cores!.message).toBe(
      'The read of cores did not hold an integer: it read an email address, 22 characters; nothing was stored.',
    );
    const text = JSON.stringify([owner, key, note, host, cores]);
    for (const value of ['dba-oncall', 'db-03', 'Primary', 'runbook', '#3'])
      expect(text).not.toContain(value);
  });

  it('shows the value, redacted, when the policy shows reads', async () => {
    const [owner, note] = await readReplies(
      [
        { column: 'Owner', as: 'owner' },
        { column: 'Note', as: 'owner' },
      ],
      true,
    );
    expect(owner!.message).toBe(
      'Read owner: "dba-oncall@example.org": an email address, 22 characters; fits string.',
    );
    expect(owner).toMatchObject({ read: { value: 'dba-oncall@example.org' } });
    // The bound input inside it stays a placeholder.
    expect(note).toMatchObject({ read: { value: 'Primary, see #⟦input:id⟧ runbook' } });
  });
});
