import { availableParallelism } from 'node:os';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Three projects, so a change can be checked in seconds before the whole suite runs:
 *
 *   npm run test:unit     tests/unit and tests/config: functions and small fixture sites; no browser,
 *                         no build of the real site (under a minute)
 *   npm run test:build    everything else that runs without a browser: builds, servers, the admin's
 *                         APIs, the store, the targets, the packed package, the real site's output
 *   npm run test:browser  what Chromium drives: tests/e2e, tests/visual and the `*.browser.test.ts`
 *
 * `npm test` runs the three. tests/unit/test-projects.test.ts keeps the split honest (a unit test
 * that starts a browser or reads the real site's build fails it).
 */
const browserTests = ['tests/e2e/**/*.test.ts', 'tests/visual/**/*.test.ts', 'tests/**/*.browser.test.ts'];

export default defineConfig({
  // The package's own entries (typed-site/template …) from their sources, as a checkout's builds
  // resolve them (package.json exports, condition typed-site-source), not from the built lib/.
  resolve: { conditions: ['typed-site-source', ...defaultServerConditions] },
  ssr: {
    resolve: {
      conditions: ['typed-site-source', ...defaultServerConditions],
      externalConditions: ['typed-site-source'],
    },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default leaves a core free, which on two cores runs one file at a time; most files
    // wait on child processes, servers and the browser more than they compute.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/config/**/*.test.ts'],
          exclude: browserTests,
          globalSetup: ['tests/helpers/setup-lib.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'build',
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: ['tests/unit/**', 'tests/config/**', ...browserTests],
          globalSetup: ['tests/helpers/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'browser', include: browserTests, globalSetup: ['tests/helpers/global-setup.ts'] },
      },
    ],
  },
});
