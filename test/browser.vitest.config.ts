import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import root, { BROWSER_SUITE } from '../vitest.config.js';

// Discovery, replay and the UI rung, each file with its fixture pages and Chromium: run alone
// (npm run test:browser, its own CI step) with npm test's bounds, so neither passes its budget.
export default defineConfig({
  ...root,
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    ...root.test,
    include: BROWSER_SUITE.map((entry) => (entry.endsWith('/**') ? `${entry}/*.test.ts` : entry)),
    exclude: [],
  },
});
