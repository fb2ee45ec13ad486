import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The apps added to the bed for issue 41 (Redmine, Tiny Tiny RSS, the CKEditor notes page) run as
 * a suite of their own (npm run test:real-apps:more, vitest.more.config.ts): with them the bed's
 * one suite would pass the 15 minutes a named suite may take.
 */
export const MORE_APPS = ['test/real-apps/{redmine,ttrss,notes}*.test.ts'];

// The real-app bed runs alone (npm run test:real-apps): each file starts real applications,
// a MariaDB and a Chromium, so files run two at a time with generous bounds.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/real-apps/**/*.test.ts'],
    exclude: MORE_APPS,
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
