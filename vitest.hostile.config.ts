import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * `npm run test:hostile`: the long runs of the hostile-conditions suite (test/hostile/), each file reading
 * RECOURSE_HOSTILE=full to run its full count. `npm test` runs the same files in their short version.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/hostile/**/*.test.ts'],
    env: { RECOURSE_HOSTILE: 'full' },
    testTimeout: 900_000,
  },
});
