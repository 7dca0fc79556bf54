import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/** `npm run test:scale`: the long scale scenario only, on the sources, with `dist/` built once for the CLI. */
const conditions = ['recourse-source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/scale/**/*.scale.ts'],
    globalSetup: ['test/setup/build-once.ts'],
    testTimeout: 20 * 60_000,
    hookTimeout: 10 * 60_000,
    pool: 'forks',
  },
});
