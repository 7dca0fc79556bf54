import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { migratePg } from '../store/migrations.pg.ts';
import { startTempPostgres, type TempPostgres } from '../../../../test/support/temp-postgres.ts';
import { createPgIdempotencyStore } from './idempotency-store.pg.ts';
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
