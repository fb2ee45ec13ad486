import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { LIFT_VERSION } from '../../src/contract/version.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type PagesServer, servePages } from '../support/pages-server.js';
import { tempDir } from '../support/temp.js';

// WordPress's row actions sit at left: -9999em until their row is hovered or focused. A replay
// whose click only scrolled would wait for a link no scroll brings on screen until its timeout.
const PAGE = `<!doctype html><meta charset="utf-8"><title>Trash</title><style>
.row-actions { position: relative; left: -9999em; }
tr:hover .row-actions, tr:focus-within .row-actions { position: static; }
</style><main><p id="done"></p><table><thead><tr><th>Title</th></tr></thead><tbody>
${['Old pricing announcement', 'Meeting notes 2']
  .map(
    (title) => `<tr><td>${title}<div class="row-actions">
<a href="#" data-title="${title}" aria-label="Restore “${title}” from the Trash">Restore</a></div></td></tr>`,
  )
  .join('')}
</tbody></table></main><script>
for (const link of document.querySelectorAll('.row-actions a'))
  link.addEventListener('click', (event) => {
    event.preventDefault();
    document.getElementById('done').textContent = 'Restored ' + link.dataset.title;
  });
</script>`;

let server: PagesServer;
let origin: string;
let browser: Browser;
const evidence = tempDir('lift-row-action-replay-');

beforeAll(async () => {
  server = await servePages(() => ({ body: PAGE }));
  origin = server.origin;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  evidence.remove();
});

function restoreCapability(): Capability {
  const done = { frame: [], locator: { by: 'text' as const, text: 'Restored {{input.title}}' } };
  return {
    schemaVersion: 1,
    name: 'post_restore',
    intent: 'Restore a trashed post by its title',
    inputs: [{ name: 'title', type: 'string' }],
    outputs: [],
    preconditions: { origin, path: '/', fingerprint: 'not-checked' },
    steps: [
      {
        version: 1,
        op: 'click',
        target: {
          frame: [],
          locator: { by: 'role', role: 'link', name: 'Restore “{{input.title}}” from the Trash' },
        },
        expect: { kind: 'visible', target: done },
      },
    ],
    outcomes: ['found'],
    dialogs: [],
    checkpoint: { target: done, equals: { input: 'title' }, match: 'contains' },
    provenance: {
      explorer: 'scripted',
      runId: 'run_test',
      createdAt: '2026-12-02T12:00:00.000Z',
      liftVersion: LIFT_VERSION,
    },
  };
}

describe('a replayed click on a row action parked off screen', () => {
  it('focuses it into view and clicks it, well before the step timeout', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    try {
      const result = await replayCapability(
        restoreCapability(),
        { title: 'Meeting notes 2' },
        { page, layoutTolerant: true, evidenceDir: evidence.path, stepTimeoutMs: 5_000 },
      );
      expect(result).toMatchObject({ outcome: 'found', checkpoint: { passed: true } });
    } finally {
      await page.close();
    }
  });
});
