import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // These run alone: the real-app bed (npm run test:real-apps) and the packed package's
    // install (npm run test:package), each with its own vitest.config.ts.
    exclude: [...configDefaults.exclude, 'test/real-apps/**', 'test/package/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
