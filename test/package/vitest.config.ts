import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The packed package runs alone (npm run test:package): installing the tarball compiles
// better-sqlite3 from source, two and a half minutes of both cores, which npm test cannot spare.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
