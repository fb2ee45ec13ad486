import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The end-to-end files run alone (npm run test:e2e, its own CI step): the demo, discovery and
// replay through the built lift command, each with the fixture and Chromium, three minutes of
// both cores kept out of npm test's fifteen. Same bounds as npm test.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    // Every family's example, run as its README says (two minutes of the lift command).
    include: ['test/e2e/**/*.test.ts', 'test/examples/families.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
