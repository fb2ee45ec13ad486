import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Capability, validateCapability } from '../../src/capability/capability.js';
import { replayCapability } from '../../src/replay/engine.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { type PagesServer, servePages } from '../support/pages-server.js';
import { tempDir } from '../support/temp.js';
import { handWrittenCapability } from './helpers.js';

// Values inside a sentence, read with a pattern of one capture group: a label–value line whose
// value is followed by a link, a count in a pager line, a count after a search term that holds
// pattern characters, and a line a hidden copy repeats (the hidden one is no match).
const PAGE = (query: string) => `<!doctype html><title>Page</title><main><h1>Runbook</h1>
<p id="footer">Last modified: 2026/12/07 03:21 by <a href="/user/admin">Admin</a></p>
<div class="pager"><span>Showing <b>1–20</b> of <b>143</b></span></div>
<p>Results for ${query}: 17</p>
<pre style="display: none">Showing 1–20 of 999</pre>
<ul><li>Tag: ops</li><li>Tag: db</li></ul>
</main>`;

let server: PagesServer;
let origin: string;
let browser: Browser;
const evidence = tempDir('lift-text-pattern-');

beforeAll(async () => {
  server = await servePages((url) => ({ body: PAGE(url.searchParams.get('q') ?? '') }));
  origin = server.origin;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  evidence.remove();
});

const matching = (pattern: string): Target => ({ frame: [], locator: { by: 'text', pattern } });

function runbook(reads: Array<[Target, string, 'string' | 'integer']>, path = '/runbook'): Capability {
  return handWrittenCapability({
    name: 'runbook_facts_read',
    intent: 'Read what the runbook page says about itself',
    inputs: [{ name: 'q', type: 'string' }],
    outputs: reads.map(([, name, type]) => ({ name, type })),
    preconditions: { origin, path, fingerprint: '0'.repeat(64) },
    steps: [
      {
        version: 1,
        op: 'navigate',
        path: `${path}?q={{input.q}}`,
        expect: { kind: 'visible', target: reads[0]![0] },
      },
      ...reads.map(([target, output]) => ({
        version: 1 as const,
        op: 'read' as const,
        target,
        output,
        expect: { kind: 'none' as const },
      })),
    ],
    outcomes: ['found'],
    checkpoint: {
      // The line that names the term: its capture holds the term, bound literally into the pattern.
      target: matching('(Results for {{input.q}}):'),
      equals: { input: 'q' },
      match: 'contains',
    },
  });
}

describe('text reads with a pattern', () => {
  it('read a label–value line, a count in a pager line and a count after a term with pattern characters', {
    timeout: 60_000,
  }, async () => {
    const capability = runbook([
      [matching('Last modified: (.+?) by'), 'modified', 'string'],
      [matching('Showing \\d+–\\d+ of (\\d+)'), 'total', 'integer'],
      [matching('Results for {{input.q}}: (\\d+)'), 'hits', 'integer'],
    ]);
    expect(validateCapability(capability).success).toBe(true);
    const page = await browser.newPage();
    try {
      const result = await replayCapability(
        capability,
        { q: 'v1.2 (beta)' },
        { page, layoutTolerant: true, evidenceDir: evidence.path },
      );
      expect(result).toMatchObject({
        outcome: 'found',
        outputs: { modified: '2026/12/07 03:21', total: 143, hits: 17 },
        checkpoint: { passed: true },
      });
    } finally {
      await page.close();
    }
  });

  it('answer AMBIGUOUS_TARGET when the pattern finds two lines, never one of them', {
    timeout: 60_000,
  }, async () => {
    const page = await browser.newPage();
    try {
      await expect(
        replayCapability(
          runbook([[matching('Tag: (\\w+)'), 'tag', 'string']]),
          { q: 'x' },
          { page, layoutTolerant: true, evidenceDir: evidence.path, stepTimeoutMs: 2_000 },
        ),
      ).rejects.toMatchObject({ code: 'AMBIGUOUS_TARGET' });
    } finally {
      await page.close();
    }
  });

  it('refuse a pattern without exactly one capture group when the capability is read', () => {
    const capability = runbook([[matching('Showing (\\d+)–(\\d+)'), 'total', 'integer']]);
    const validated = validateCapability(capability);
    expect(validated.success).toBe(false);
    expect(JSON.stringify(validated)).toMatch(/2 capture groups/);
  });
});
