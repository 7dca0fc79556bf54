/**
 * Deadlines over real HTTP against the real board: a `tasks_create` held up by a slow store overruns the
 * board's deadline and comes back as a `transient` DEADLINE_EXCEEDED failure within the deadline plus 100 ms, in
 * both protocol eras, and nothing is written, not even after the slow write wakes up.
 *
 * Measure the distribution: `GUARDRAILS_REPORT=1 npx vitest run test/guardrails-deadline.test.ts` prints every
 * measured latency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardStore } from '../apps/board/src/store/board-store.ts';
import {
  failureMetaOf,
  startTestBoard,
  textOf,
  type Era,
  type TestBoard,
} from '../apps/board/src/testing/board-host.ts';

const DEADLINE_MS = 300;
/** The promised bound: the failure arrives within the deadline plus this. */
const SLACK_MS = 100;
/** How long the slow store holds a write before trying it: well past the deadline. */
const SLOW_WRITE_MS = DEADLINE_MS + 500;
const RUNS = 10;
const MARKER = 'ZEPHYR-DEADLINE';

/** A store whose transactions wait {@link SLOW_WRITE_MS} before running while `slow`; records what became of them. */
const state = { slow: false, started: 0, outcomes: [] as ('written' | 'refused')[] };
function slowWrites(inner: BoardStore): BoardStore {
  return {
    ...inner,
    async transaction(work, signal) {
      if (!state.slow) return inner.transaction(work, signal);
      state.started += 1;
      await new Promise((resolve) => setTimeout(resolve, SLOW_WRITE_MS));
      try {
        const result = await inner.transaction(work, signal);
        state.outcomes.push('written');
        return result;
      } catch (error) {
        state.outcomes.push('refused');
        throw error;
      }
    },
  };
}

let tb: TestBoard;
beforeAll(async () => {
  tb = await startTestBoard({ defaultDeadlineMs: DEADLINE_MS, wrapStore: slowWrites });
});
afterAll(async () => {
  await tb.close();
});

const countTasks = (): number =>
  (tb.board.db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n;

/** Waits (bounded: 100 × 50 ms) until `done()` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i += 1) await new Promise((r) => setTimeout(r, 50));
}

describe.each(['modern', 'legacy'] as Era[])('deadline over HTTP, %s client', (era) => {
  it(`answers a transient DEADLINE_EXCEEDED within ${String(DEADLINE_MS)} + ${String(SLACK_MS)} ms, ${String(RUNS)} times, writing nothing`, async () => {
    const client = await tb.connect(era, 'maintainer');
    const latencies: number[] = [];
    try {
      // Warm the path (connection, prepared statements) so that the runs measure the deadline, not set-up.
      await client.callTool({ name: 'whoami', arguments: {} });
      const before = countTasks();
      state.started = 0;
      state.outcomes = [];
      state.slow = true;
      for (let run = 0; run < RUNS; run += 1) {
        const started = performance.now();
        const result = await client.callTool({
          name: 'tasks_create',
          arguments: { title: `${MARKER} ${era} ${String(run)}` },
        });
        latencies.push(Math.round(performance.now() - started));
        expect(result.isError).toBe(true);
        expect(failureMetaOf(result)).toMatchObject({
          category: 'transient',
          code: 'DEADLINE_EXCEEDED',
          retryable: true,
          changed: false,
        });
        const text = textOf(result);
        expect(text).toContain('Nothing was changed');
        expect(text).toContain('tasks_create');
        expect(text).not.toContain(MARKER);
      }
      // Every slow write wakes up after its call was answered; each must be refused, none written.
      await until(() => state.outcomes.length === RUNS);
      state.slow = false;
      expect(state.started).toBe(RUNS);
      expect(state.outcomes).toEqual(Array.from({ length: RUNS }, () => 'refused'));
      expect(countTasks()).toBe(before);
      expect(
        tb.board.db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE title LIKE ?').get(`${MARKER}%`),
      ).toEqual({ n: 0 });
      if (process.env['GUARDRAILS_REPORT'] === '1')
        console.log(`deadline ${era}: latencies ms ${JSON.stringify(latencies)}`);
      for (const latency of latencies) expect(latency).toBeLessThanOrEqual(DEADLINE_MS + SLACK_MS);
      expect(Math.min(...latencies)).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
    } finally {
      state.slow = false;
      await client.close();
    }
  }, 30_000);
});
