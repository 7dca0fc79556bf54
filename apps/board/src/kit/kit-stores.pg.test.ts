import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { migratePg } from '../store/migrations.pg.ts';
import { startTempPostgres, type TempPostgres } from '../../../../test/support/temp-postgres.ts';
import { createPgIdempotencyStore } from './idempotency-store.pg.ts';
import { createPgAmbientTransaction } from './pg-ambient-transaction.ts';
import { createPgBoardStore } from '../store/board-store.pg.ts';
import { createPgCallLog } from './call-log.pg.ts';
import { pgRateLimitStoreFactory } from './rate-limit-store.pg.ts';

let postgres: TempPostgres;
let pool: pg.Pool;
beforeAll(async () => {
  postgres = await startTempPostgres();
  pool = await postgres.freshPool();
  await migratePg(pool);
});
afterAll(async () => {
  await postgres.stop();
});

describe('PostgreSQL idempotency store', () => {
  it('commits a keyed write together with its record, or neither (completeAtomically)', async () => {
    const ambient = createPgAmbientTransaction();
    const store = createPgIdempotencyStore(pool, { ambient });
    const board = createPgBoardStore(pool, { ownsPool: false, ambient });
    let n = 0;
    const addMember = async (): Promise<string> => {
      n += 1;
      const id = `m_atomic${String(n)}`;
      await board.transaction((tx) =>
        tx.insertMember({
          id,
          name: 'Atomic',
          kind: 'person',
          role: 'viewer',
          createdAt: '2026-07-28T10:00:00Z',
          revokedAt: null,
        }),
      );
      // Inside the transaction the board store reads its own uncommitted write.
      expect(await board.getMember(id)).toMatchObject({ id });
      return id;
    };
    const exists = async (id: string): Promise<boolean> =>
      (await pool.query('SELECT 1 FROM members WHERE id = $1', [id])).rowCount === 1;
    expect(typeof store.completeAtomically).toBe('function');
    const complete: NonNullable<typeof store.completeAtomically> = (member, key, lease, work) =>
      store.completeAtomically?.(member, key, lease, work) ??
      Promise.reject(new Error('no completeAtomically'));

    const failing = await store.claim('m_1', 'atomic-a', 'members_add', 'h', 60_000, 10_000);
    let failedId = '';
    await expect(
      complete('m_1', 'atomic-a', (failing as { lease: string }).lease, async () => {
        failedId = await addMember();
        throw new Error('handler failed after its write');
      }),
    ).rejects.toThrow('handler failed after its write');
    expect(await exists(failedId)).toBe(false);

    const ok = await store.claim('m_1', 'atomic-b', 'members_add', 'h', 60_000, 10_000);
    let okId = '';
    const success = await complete('m_1', 'atomic-b', (ok as { lease: string }).lease, async () => {
      okId = await addMember();
      return { text: `Added ${okId}` };
    });
    expect(success).toEqual({ text: `Added ${okId}` });
    expect(await exists(okId)).toBe(true);
    expect(await store.claim('m_1', 'atomic-b', 'members_add', 'h', 60_000, 10_000)).toMatchObject({
      state: 'done',
      result: { text: `Added ${okId}` },
    });

    // A claim taken over by a retry meanwhile: the late run's write is rolled back with it.
    const stale = await store.claim('m_1', 'atomic-c', 'members_add', 'h', 60_000, 10_000);
    await pool.query("UPDATE idempotency SET lease_id = 'someone-else' WHERE key = 'atomic-c'");
    let lateId = '';
    await expect(
      complete('m_1', 'atomic-c', (stale as { lease: string }).lease, async () => {
        lateId = await addMember();
        return { text: 'late' };
      }),
    ).rejects.toMatchObject({ failure: { code: 'IDEMPOTENCY_LEASE_LOST', changed: false } });
    expect(await exists(lateId)).toBe(false);
  });

  it('claims a key once, reports pending, replays done, refuses other arguments, and expires', async () => {
    let now = 1_000;
    const store = createPgIdempotencyStore(pool, { now: () => now });
    expect(await store.claim('m1', 'key-00001', 'tasks_create', 'h1', 1000)).toMatchObject({
      state: 'claimed',
    });
    expect(await store.claim('m1', 'key-00001', 'tasks_create', 'h1', 1000)).toEqual({ state: 'pending' });
    await store.complete('m1', 'key-00001', { text: 'Created T-1', structuredContent: { ref: 'T-1' } });
    expect(await store.claim('m1', 'key-00001', 'tasks_create', 'h1', 1000)).toEqual({
      state: 'done',
      argsHash: 'h1',
      result: { text: 'Created T-1', structuredContent: { ref: 'T-1' } },
    });
    expect(await store.claim('m1', 'key-00001', 'tasks_create', 'h2', 1000)).toEqual({ state: 'mismatch' });
    now += 1000;
    expect(await store.claim('m1', 'key-00001', 'tasks_create', 'h2', 1000)).toMatchObject({
      state: 'claimed',
    });
    await store.release('m1', 'key-00001');
    expect(await store.claim('m1', 'key-00001', 'tasks_create', 'h3', 1000)).toMatchObject({
      state: 'claimed',
    });
  });

  it('grants exactly one of 20 concurrent claims for one key', async () => {
    const store = createPgIdempotencyStore(pool);
    const claims = await Promise.all(
      Array.from({ length: 20 }, () => store.claim('m2', 'key-concurrent', 'tasks_comment', 'h', 60_000)),
    );
    expect(claims.filter((c) => c.state === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.state === 'pending')).toHaveLength(19);
  });
});

describe('PostgreSQL call log and rate limits', () => {
  it('records calls and reads them newest first with filters', async () => {
    const log = createPgCallLog(pool);
    const base = { principalId: 'm1', code: null, durationMs: 2.4, outcome: 'ok' as const };
    await log.record({ ...base, at: '2026-07-28T10:00:00Z', tool: 'tasks_get', correlationId: 'c_1' });
    await log.record({
      ...base,
      at: '2026-07-28T10:00:01Z',
      tool: 'whoami',
      correlationId: 'c_2',
      principalId: 'm2',
    });
    expect((await log.recent()).map((e) => e.correlationId)).toEqual(['c_2', 'c_1']);
    expect(await log.recent({ memberId: 'm1' })).toEqual([
      {
        at: '2026-07-28T10:00:00Z',
        principalId: 'm1',
        tool: 'tasks_get',
        outcome: 'ok',
        code: null,
        durationMs: 2,
        correlationId: 'c_1',
      },
    ]);
  });

  it('refuses the call past the limit with the time to wait', async () => {
    const limiter = pgRateLimitStoreFactory(pool)({ keyPrefix: 'test', points: 2, duration: 60 });
    await limiter.consume('m1', 1);
    await limiter.consume('m1', 1);
    await expect(limiter.consume('m1', 1)).rejects.toMatchObject({ remainingPoints: 0 });
  });
});
