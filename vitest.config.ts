import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-app test bed runs alone: npm run test:real-apps (test/real-apps/vitest.config.ts).
    exclude: [...configDefaults.exclude, 'test/real-apps/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
