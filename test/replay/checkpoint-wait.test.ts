import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { compareCheckpoint } from '../../src/replay/start-and-end.js';
import { launchBrowser } from '../../src/rungs/ui/browser.js';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// Only the checkpoint is read by compareCheckpoint.
const capability = {
  checkpoint: {
    target: { frame: [], locator: { by: 'text', text: '{{input.body}}' } },
    equals: { input: 'body' },
    match: 'exact',
  },
} as unknown as Capability;

describe('the final checkpoint', () => {
  it('waits for a result the page shows a moment after the last step (a preview loading)', async () => {
    const page = await browser.newPage();
    try {
      await page.setContent(`<div id="preview">Loading...</div>
        <script>setTimeout(() => { document.getElementById('preview').innerHTML = '<p>Numbers next week.</p>'; }, 700);</script>`);
      const result = await compareCheckpoint(page, capability, { body: 'Numbers next week.' }, 5_000);
      expect(result).toMatchObject({ passed: true, actual: 'Numbers next week.' });
    } finally {
      await page.close();
    }
  });

  it('still fails, within its bound, when the page never shows the input', async () => {
    const page = await browser.newPage();
    try {
      await page.setContent('<p>Something else.</p>');
      const started = Date.now();
      const result = await compareCheckpoint(page, capability, { body: 'Numbers next week.' }, 1_000);
      expect(result.passed).toBe(false);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await page.close();
    }
  });
});
