import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Every benchmark once in its short mode (npm run test:bench, its own CI step), so that none rots:
// the benches start the fixtures, browsers, the real-app bed, PostgreSQL, LibreOffice and a desktop
// of their own, minutes of both cores that npm test cannot spare. Two benches at a time, as the
// other named suites run two files at a time; each has its own bound in the test file, under this one.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/bench/**/*.test.ts'],
    testTimeout: 450_000,
    hookTimeout: 60_000,
    maxConcurrency: 2,
    pool: 'forks',
  },
});
