import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The load test runs alone (npm run test:load): a PostgreSQL, worker hosts in network
// namespaces (root and iproute2), 1,000 jobs and a kill -9 every 100; minutes of both cores.
// Also the soak of `lift serve` over HTTP (13,000 calls, the heap read after each window).
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/load/**/*.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
  },
});
