import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The real-app bed runs alone (npm run test:real-apps): each file starts real applications,
// a MariaDB and a Chromium, so files run two at a time with generous bounds.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/real-apps/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
