import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The console runs alone (npm run test:console, its own CI step): seven files of lift processes
// and Chromium pages, three and a half minutes of both cores, kept out of npm test's fifteen.
// Same bounds as npm test.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/console/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
