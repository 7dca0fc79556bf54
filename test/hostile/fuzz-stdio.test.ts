/**
 * The long fuzzing run over stdio (`npm run test:hostile`): 3,000 hostile lines to a fresh `recourse-board stdio`
 * on SQLite, each followed by a ping that must be answered within 5 s; no -32603, no internal detail, no stdout
 * line that is not JSON-RPC, and a good `whoami` every 25 lines. The short run is test/board-fuzz.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { describeFigures, fuzzStdio } from './fuzz-board.ts';

const FULL = process.env['RECOURSE_HOSTILE'] === 'full';

describe.runIf(FULL)('hostile stdio traffic, long run', () => {
  it(
    '3,000 fuzzed lines: no crash, no -32603, no hang, no internal detail',
    { timeout: 1_000_000 },
    async () => {
      const figures = await fuzzStdio({ count: 3_000, budgetMs: 800_000 });
      console.log(describeFigures('fuzz-stdio', figures));
      expect(figures.violations).toEqual([]);
      expect(figures.sent).toBe(3_001);
    },
  );
});
