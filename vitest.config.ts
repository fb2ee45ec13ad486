import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // These run alone, each with its own vitest.config.ts: the real-app bed (npm run
    // test:real-apps), the packed package's install (test:package), the console (test:console),
    // the job queue's workers (test:queue), the end-to-end runs of the command (test:e2e) and
    // the load test on worker hosts in network namespaces (test:load).
    exclude: [
      ...configDefaults.exclude,
      'test/real-apps/**',
      'test/package/**',
      'test/console/**',
      'test/queue/**',
      'test/e2e/**',
      'test/load/**',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
