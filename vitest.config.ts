import { configDefaults, defineConfig } from 'vitest/config';

/** The folders npm run test:browser runs (test/browser.vitest.config.ts), left out of npm test. */
export const BROWSER_SUITE = [
  'test/discover/**',
  'test/replay/**',
  'test/rungs/ui/**',
  // Discovery and replay under the request guard and the capability gate, in Chromium too.
  'test/security/request-guard.test.ts',
  'test/security/capability-gate.test.ts',
  'test/capability/fingerprint.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // These run alone, each with its own vitest.config.ts: the real-app bed (npm run
    // test:real-apps), the packed package's install (test:package), the console (test:console),
    // the job queue's workers (test:queue), the end-to-end runs of the command and every family's example (test:e2e), the
    // load test on worker hosts in network namespaces (test:load), discovery, replay and the UI
    // rung in Chromium (test:browser: about 900 of the 1,400 seconds the files took together,
    // which kept npm test over its ten minutes on two cores), and every benchmark once in its
    // short mode (test:bench).
    exclude: [
      ...configDefaults.exclude,
      ...BROWSER_SUITE,
      'test/real-apps/**',
      'test/package/**',
      'test/console/**',
      'test/queue/**',
      'test/e2e/**',
      'test/examples/families.test.ts',
      'test/load/**',
      'test/bench/**',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
