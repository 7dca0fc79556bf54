import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Tests run the TypeScript sources: the `recourse-source` export condition of each workspace package points at
 * its `src/`. The global setup builds `dist/` once per run, because some tests spawn the compiled CLIs.
 */
const conditions = ['recourse-source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'test/**/*.test.ts',
      'examples/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    globalSetup: ['test/setup/build-once.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
