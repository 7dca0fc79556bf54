/**
 * The long fuzzing run over HTTP (`npm run test:hostile`): 20,000 hostile JSON-RPC requests to a fresh
 * `recourse-board serve` on SQLite; every answer within 5 s, none 500 or -32603, none with an internal detail,
 * and the board still serving a good `whoami` every 25 messages. The short run is test/board-fuzz.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { describeFigures, fuzzHttp } from './fuzz-board.ts';

const FULL = process.env['RECOURSE_HOSTILE'] === 'full';

describe.runIf(FULL)('hostile HTTP traffic, long run', () => {
  it(
    '20,000 fuzzed messages: no crash, no 500, no -32603, no hang, no internal detail',
    { timeout: 1_500_000 },
    async () => {
      const figures = await fuzzHttp({ count: 20_000, budgetMs: 1_200_000 });
      console.log(describeFigures('fuzz-http', figures));
      expect(figures.violations).toEqual([]);
      expect(figures.sent).toBe(20_002);
    },
  );
});
