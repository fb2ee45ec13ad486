import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import type { ToolEvent } from '../../src/contract/context.js';
import { replayCapability } from '../../src/replay/engine.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { type PageOnServer, pageOnServer, servesHtml } from '../rungs/ui/page-on-server.js';
import { tempDir } from '../support/temp.js';
import { handWrittenCapability } from './helpers.js';

// A users list as WordPress draws it: the key cell holds the login's link and, beside it, the
// row's actions, so its text is more than the login.
const USERS = `<!doctype html><title>Users</title><main><h1>Users</h1><table>
<thead><tr><th>Username</th><th>Email</th></tr></thead><tbody>
<tr><td><a href="#1">admin</a><div>Edit | Delete</div></td><td>admin@example.org</td></tr>
<tr><td><a href="#2">editor</a><div>Edit | Delete</div></td><td>editor@example.org</td></tr>
</tbody></table></main>`;

const cell = (column: string): Target => ({
  frame: [],
  locator: { by: 'cell', row: '{{input.login}}', column, key: 'Username' },
});

function emailLookup(origin: string, match: 'exact' | 'contains'): Capability {
  return handWrittenCapability({
    name: 'user_email',
    intent: 'Look up a user by login',
    inputs: [{ name: 'login', type: 'string' }],
    outputs: [{ name: 'email', type: 'string' }],
    preconditions: { origin, path: '/users', fingerprint: 'not-checked' },
    steps: [{ version: 1, op: 'read', target: cell('Email'), output: 'email', expect: { kind: 'none' } }],
    outcomes: ['found', 'not_found'],
    checkpoint: { target: cell('Username'), equals: { input: 'login' }, match },
  });
}

let server: PageOnServer;
const evidence = tempDir('lift-checkpoint-from-read-');

beforeAll(async () => {
  server = await pageOnServer(servesHtml(USERS), 'lift-checkpoint-from-read-page-');
});
afterAll(async () => {
  await server?.close();
  evidence.remove();
});

async function replay(match: 'exact' | 'contains') {
  const events: ToolEvent[] = [];
  const run = replayCapability(
    emailLookup(server.origin, match),
    { login: 'editor' },
    {
      page: server.page,
      layoutTolerant: true,
      evidenceDir: evidence.path,
      effectClass: 'read',
      emit: (event) => events.push(event),
    },
  );
  return { run, checked: () => events.find((event) => event.type === 'replay-checkpoint-checked') };
}

describe('a checkpoint on the key cell of the row a read found', () => {
  it('is answered by the look that read the row, with no look of its own', { timeout: 60_000 }, async () => {
    const { run, checked } = await replay('contains');
    const result = await run;
    expect(result).toMatchObject({ outcome: 'found', outputs: { email: 'editor@example.org' } });
    expect(result.checkpoint).toMatchObject({ passed: true, expected: 'editor' });
    expect(checked()).toMatchObject({ from: 'read', passed: true });
  });

  it('never fails from that look: a mismatch is looked at afresh, and then fails', {
    timeout: 60_000,
  }, async () => {
    // The row was found by its link's text, but the cell reads "editor" and its actions: not exact.
    const { run, checked } = await replay('exact');
    await expect(run).rejects.toMatchObject({ code: 'CHECK_FAILED' });
    expect(checked()).toMatchObject({ from: 'page', passed: false });
  });
});
