/**
 * The short fuzzing run (part of `npm test`): a few hundred hostile JSON-RPC messages over HTTP to the real
 * `recourse-board serve` and over the real `recourse-board stdio`, with the same generators and checks as the
 * long run in `npm run test:hostile` (test/hostile/fuzz-board.ts): every answer within 5 s, none 500 or
 * -32603, none with an internal detail, the board still serving a good `whoami`; depth 100,000 gets a 400 or
 * a validation result. Each run uses a fresh seed, printed with its figures, so that failures can be replayed.
 */
import { describe, expect, it } from 'vitest';
import { checkAnswer, describeFigures, fuzzHttp, fuzzStdio, newFigures } from './hostile/fuzz-board.ts';

const seed = Number(process.env['RECOURSE_FUZZ_SEED'] ?? Date.now() % 1_000_000);

describe('hostile input, short run', () => {
  it('the answer checks catch -32603, stack frames, error names, [object …] and SQL', () => {
    const leaks = [
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error"}}',
      'Error: boom\n    at handle (/srv/app/node_modules/x/index.js:10:5)',
      '{"error":{"code":-32602,"message":"TypeError: cannot read properties of undefined"}}',
      '{"result":{"isError":true,"content":[{"type":"text","text":"expected string, got [object Array]"}]}}',
      '{"result":{"isError":true,"content":[{"type":"text","text":"SQLITE_CONSTRAINT: UNIQUE failed"}]}}',
    ];
    for (const leak of leaks) expect(checkAnswer(leak, newFigures()), leak).not.toEqual([]);
    expect(
      checkAnswer(
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"`params.name` is 5; expected a tool name."}}',
        newFigures(),
      ),
    ).toEqual([]);
  });

  it(
    '300 fuzzed HTTP messages: no crash, no 500, no -32603, no hang, no internal detail',
    { timeout: 120_000 },
    async () => {
      const figures = await fuzzHttp({ count: 300, budgetMs: 60_000, seed });
      console.log(`${describeFigures('fuzz-http', figures)}; seed ${seed}`);
      expect(figures.violations).toEqual([]);
      expect(figures.sent).toBe(302);
    },
  );

  it(
    '200 fuzzed stdio lines: no crash, no -32603, no hang, no internal detail',
    { timeout: 120_000 },
    async () => {
      const figures = await fuzzStdio({ count: 200, budgetMs: 60_000, seed });
      console.log(`${describeFigures('fuzz-stdio', figures)}; seed ${seed}`);
      expect(figures.violations).toEqual([]);
      expect(figures.sent).toBe(201);
    },
  );
});
