import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The package's own entries (typed-site/template …) from their sources, as a checkout's builds
  // resolve them (package.json exports, condition typed-site-source), not from the built lib/.
  resolve: { conditions: ['typed-site-source', ...defaultServerConditions] },
  ssr: { resolve: { conditions: ['typed-site-source', ...defaultServerConditions], externalConditions: ['typed-site-source'] } },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
