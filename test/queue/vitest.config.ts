import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The job queue and the shared store run alone (npm run test:queue, its own CI step): lift
// worker processes and racing store clients on a PostgreSQL the tests start, killed and
// restarted, three to six minutes of both cores, which npm test's fifteen minutes have no room
// for. Same bounds as npm test.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/queue/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
