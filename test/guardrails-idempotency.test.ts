/**
 * Idempotency over real HTTP against the real board, in both protocol eras: 200 repeats of `tasks_create`
 * with one idempotency key, sequential, and 200 with another key from a pool of 20 concurrent workers (while the
 * first write is held up, so that the repeats really overlap it), each return the one task's ref; the database
 * holds exactly one task per key and the store ran one write per key; the same key with other arguments is a
 * `conflict` that names the key.
 *
 * The maintainer's rate limit is raised to 2000 calls a minute here (`perRole`), since the default of 120 would
 * refuse most of these 400+ calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { BoardStore } from '../apps/board/src/store/board-store.ts';
import {
  failureMetaOf,
  startTestBoard,
  textOf,
  type Era,
  type TestBoard,
} from '../apps/board/src/testing/board-host.ts';

const REPEATS = 200;
const WORKERS = 20;
/** How long each write is held up during the concurrent run. */
const HOLD_MS = 300;

const state = { holdWrites: false, transactions: 0 };
function counting(inner: BoardStore): BoardStore {
  return {
    ...inner,
    async transaction(work, signal) {
      state.transactions += 1;
      if (state.holdWrites) await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
      return inner.transaction(work, signal);
    },
  };
}

let tb: TestBoard;
beforeAll(async () => {
  tb = await startTestBoard({ wrapStore: counting, rateLimit: { perRole: { maintainer: 2000 } } });
});
afterAll(async () => {
  await tb.close();
});

const refOf = (result: unknown): string | undefined =>
  (result as { structuredContent?: { task?: { ref?: string } } }).structuredContent?.task?.ref;
const rowsTitled = (title: string): number =>
  (tb.board.db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE title = ?').get(title) as { n: number }).n;

/** Calls tasks_create `count` times with `args` from `workers` workers; returns the refs and the peak in flight. */
async function repeat(client: Client, args: Record<string, unknown>, count: number, workers: number) {
  const refs: (string | undefined)[] = [];
  let next = 0;
  let inFlight = 0;
  let peak = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      try {
        const result = await client.callTool({ name: 'tasks_create', arguments: args });
        expect(result.isError, textOf(result)).toBeFalsy();
        refs.push(refOf(result));
      } finally {
        inFlight -= 1;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return { refs, peak };
}

describe.each(['modern', 'legacy'] as Era[])('idempotent tasks_create over HTTP, %s client', (era) => {
  it(`creates one task from ${String(REPEATS)} sequential repeats, each returning its ref`, async () => {
    const client = await tb.connect(era, 'maintainer');
    try {
      const title = `Sequential ${era} ORCA-IDEM`;
      const writesBefore = state.transactions;
      const { refs, peak } = await repeat(client, { title, idempotencyKey: `seq-${era}` }, REPEATS, 1);
      expect(peak).toBe(1);
      expect(refs).toHaveLength(REPEATS);
      expect(refs[0]).toMatch(/^T-\d+$/);
      expect(new Set(refs)).toEqual(new Set([refs[0]]));
      expect(rowsTitled(title)).toBe(1);
      expect(state.transactions - writesBefore).toBe(1);

      const other = await client.callTool({
        name: 'tasks_create',
        arguments: { title: `${title} (other)`, idempotencyKey: `seq-${era}` },
      });
      expect(other.isError).toBe(true);
      expect(failureMetaOf(other)).toMatchObject({
        category: 'conflict',
        code: 'IDEMPOTENCY_KEY_REUSED',
        retryable: false,
        changed: false,
      });
      expect(textOf(other)).toContain(`seq-${era}`);
      expect(rowsTitled(`${title} (other)`)).toBe(0);
    } finally {
      await client.close();
    }
  }, 120_000);

  it(`creates one task from ${String(REPEATS)} repeats with ${String(WORKERS)} in flight, each returning its ref`, async () => {
    const client = await tb.connect(era, 'maintainer');
    try {
      const title = `Concurrent ${era} ORCA-IDEM`;
      const writesBefore = state.transactions;
      state.holdWrites = true;
      const { refs, peak } = await repeat(
        client,
        { title, idempotencyKey: `conc-${era}` },
        REPEATS,
        WORKERS,
      ).finally(() => {
        state.holdWrites = false;
      });
      expect(peak).toBe(WORKERS);
      expect(refs).toHaveLength(REPEATS);
      expect(refs[0]).toMatch(/^T-\d+$/);
      expect(new Set(refs)).toEqual(new Set([refs[0]]));
      expect(rowsTitled(title)).toBe(1);
      expect(state.transactions - writesBefore).toBe(1);

      const other = await client.callTool({
        name: 'tasks_create',
        arguments: { title, description: 'other arguments', idempotencyKey: `conc-${era}` },
      });
      expect(failureMetaOf(other)).toMatchObject({ category: 'conflict', code: 'IDEMPOTENCY_KEY_REUSED' });
      expect(textOf(other)).toContain(`conc-${era}`);
      expect(rowsTitled(title)).toBe(1);
    } finally {
      await client.close();
    }
  }, 120_000);
});
