import { test } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';

/**
 * `it` with a browser page: one browser and one page for the whole file, launched for its first
 * test that asks for `page` and closed after its last. Each test sets the page's content itself.
 */
export const itWithPage = test
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
  .extend('browser', { scope: 'file' }, async ({}, { onCleanup }) => {
    const browser = await launchBrowser();
    onCleanup(() => browser.close());
    return browser;
  })
  .extend('page', { scope: 'file' }, async ({ browser }) => browser.newPage());
