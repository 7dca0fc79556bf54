import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRateLimits } from '@recourse/server';
import { openDatabase } from '../store/open-database.sqlite.ts';
import { migrate } from '../store/migrations.sqlite.ts';
import { createSqliteIdempotencyStore } from './idempotency-store.sqlite.ts';
import { createSqliteCallLog } from './call-log.sqlite.ts';
import { sqliteRateLimitStoreFactory } from './rate-limit-store.sqlite.ts';
import { createSqliteBoardStore } from '../store/board-store.sqlite.ts';
import { createSerialLock } from '../store/serial-lock.ts';

function memoryDb() {
  const db = openDatabase(':memory:');
  migrate(db);
  return db;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('SQLite idempotency store', () => {
  it('claims a key once, reports pending, replays done, and refuses other arguments', async () => {
    let now = 1_000;
    const store = createSqliteIdempotencyStore(memoryDb(), { now: () => now });
    expect(await store.claim('m1', 'key-00001', 'tasks_create', 'h1', 1000)).toMatchObject({
      state: 'claimed',
    });
    expect(await store.claim('m1', 'key-00001', 'tasks_create', 'h1', 1000)).toEqual({ state: 'pending' });
    expect(await store.claim('m2', 'key-00001', 'tasks_create', 'h1', 1000)).toMatchObject({
      state: 'claimed',
    });
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
    now += 5000;
    expect(store.purgeExpired()).toBe(2);
  });

  it('releases a failed claim so that a later attempt may run', async () => {
    const store = createSqliteIdempotencyStore(memoryDb());
    await store.claim('m1', 'key-00002', 'tasks_comment', 'h', 60_000);
    await store.release('m1', 'key-00002');
    expect(await store.claim('m1', 'key-00002', 'tasks_comment', 'h', 60_000)).toMatchObject({
      state: 'claimed',
    });
  });
});

describe('SQLite idempotency leases', () => {
  it('lets the first repeat after the lease take over a claim left pending by a crash, once', async () => {
    let now = 1_000;
    const store = createSqliteIdempotencyStore(memoryDb(), { now: () => now });
    const first = await store.claim('m1', 'key-crash', 'tasks_create', 'h', 86_400_000, 5_000);
    expect(first).toMatchObject({ state: 'claimed' });
    // The server holding the claim "crashed": no complete, no release.
    expect(await store.claim('m1', 'key-crash', 'tasks_create', 'h', 86_400_000, 5_000)).toEqual({
      state: 'pending',
    });
    now += 5_000;
    // Other arguments never take a key over.
    expect(await store.claim('m1', 'key-crash', 'tasks_create', 'other', 86_400_000, 5_000)).toEqual({
      state: 'mismatch',
    });
    const second = await store.claim('m1', 'key-crash', 'tasks_create', 'h', 86_400_000, 5_000);
    expect(second).toMatchObject({ state: 'claimed' });
    expect(await store.claim('m1', 'key-crash', 'tasks_create', 'h', 86_400_000, 5_000)).toEqual({
      state: 'pending',
    });
    // The old holder coming back can neither complete nor drop the new claim.
    const lease = (c: unknown) => (c as { lease: string }).lease;
    await store.complete('m1', 'key-crash', { text: 'stale' }, lease(first));
    await store.release('m1', 'key-crash', lease(first));
    await store.complete('m1', 'key-crash', { text: 'fresh' }, lease(second));
    expect(await store.claim('m1', 'key-crash', 'tasks_create', 'h', 86_400_000, 5_000)).toMatchObject({
      state: 'done',
      result: { text: 'fresh' },
    });
  });

  it("commits the handler's write and the claim's result together, or neither", async () => {
    const db = memoryDb();
    const lock = createSerialLock();
    const store = createSqliteIdempotencyStore(db, { lock });
    const board = createSqliteBoardStore(db, { lock, ownsDatabase: false });
    const member = { id: 'm_1', name: 'A', kind: 'person' as const, role: 'owner' as const };
    await board.transaction((tx) =>
      tx.insertMember({ ...member, createdAt: '2026-01-01T00:00:00Z', revokedAt: null }),
    );
    const count = () => (db.prepare('SELECT COUNT(*) AS n FROM comments').get() as { n: number }).n;
    const comment = () =>
      board.transaction((tx) =>
        tx.insertComment({ ref: 'T-1', authorId: 'm_1', body: 'hi', createdAt: '2026-01-01T00:00:00Z' }),
      );
    db.exec(
      "INSERT INTO tasks (ref, title, description, status, assignee, labels, due, version, created_by, created_at, updated_at, seq) VALUES ('T-1', 't', '', 'todo', NULL, '[]', NULL, 1, 'm_1', 'x', 'x', 1)",
    );

    const failing = await store.claim('m_1', 'key-a', 'tasks_comment', 'h', 60_000, 10_000);
    await expect(
      store.completeAtomically('m_1', 'key-a', (failing as { lease: string }).lease, async () => {
        await comment();
        throw new Error('handler failed after its write');
      }),
    ).rejects.toThrow('handler failed after its write');
    expect(count()).toBe(0);

    const ok = await store.claim('m_1', 'key-b', 'tasks_comment', 'h', 60_000, 10_000);
    const success = await store.completeAtomically(
      'm_1',
      'key-b',
      (ok as { lease: string }).lease,
      async () => {
        await comment();
        return { text: 'Commented on T-1' };
      },
    );
    expect(success).toEqual({ text: 'Commented on T-1' });
    expect(count()).toBe(1);
    expect(await store.claim('m_1', 'key-b', 'tasks_comment', 'h', 60_000, 10_000)).toMatchObject({
      state: 'done',
      result: { text: 'Commented on T-1' },
    });

    // A claim taken over meanwhile: the late run's write is rolled back with it.
    const stale = await store.claim('m_1', 'key-c', 'tasks_comment', 'h', 60_000, 10_000);
    db.prepare("UPDATE idempotency SET lease_id = 'someone-else' WHERE key = 'key-c'").run();
    await expect(
      store.completeAtomically('m_1', 'key-c', (stale as { lease: string }).lease, async () => {
        await comment();
        return { text: 'late' };
      }),
    ).rejects.toMatchObject({ failure: { code: 'IDEMPOTENCY_LEASE_LOST', changed: false } });
    expect(count()).toBe(1);
  });
});

describe('SQLite call log', () => {
  it('records calls without arguments and reads them newest first with filters', async () => {
    const log = createSqliteCallLog(memoryDb());
    const base = { principalId: 'm1', code: null, durationMs: 3.6, outcome: 'ok' as const };
    void log.record({ ...base, at: '2026-07-28T10:00:00Z', tool: 'tasks_get', correlationId: 'c_1' });
    void log.record({
      ...base,
      at: '2026-07-28T10:00:01Z',
      tool: 'tasks_create',
      correlationId: 'c_2',
      principalId: 'm2',
    });
    void log.record({
      ...base,
      at: '2026-07-28T10:00:02Z',
      tool: 'tasks_get',
      correlationId: 'c_3',
      outcome: 'not_found',
      code: 'TASK_NOT_FOUND',
    });
    expect((await log.recent()).map((e) => e.correlationId)).toEqual(['c_3', 'c_2', 'c_1']);
    expect(await log.recent({ tool: 'tasks_get', limit: 1 })).toEqual([
      {
        at: '2026-07-28T10:00:02Z',
        principalId: 'm1',
        tool: 'tasks_get',
        outcome: 'not_found',
        code: 'TASK_NOT_FOUND',
        durationMs: 4,
        correlationId: 'c_3',
      },
    ]);
    expect((await log.recent({ memberId: 'm2' })).map((e) => e.tool)).toEqual(['tasks_create']);
  });
});

describe('SQLite rate-limit store', () => {
  it('keeps counts across a restart of the database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'board-rl-'));
    dirs.push(dir);
    const file = join(dir, 'board.sqlite');
    const principal = {
      id: 'm1',
      name: 'A',
      role: 'contributor',
      attributes: { kind: 'assistant' },
    } as const;
    const open = () => {
      const db = openDatabase(file);
      migrate(db);
      const store = sqliteRateLimitStoreFactory(db);
      return { db, store, limits: createRateLimits({ defaultPerMinute: 3, storeFactory: store }) };
    };
    const first = open();
    expect((await first.limits.consume(principal, 1)).allowed).toBe(true);
    expect((await first.limits.consume(principal, 1)).allowed).toBe(true);
    // Counts are written behind the calls; closing the store (as the board's close() does) writes them.
    await first.store.close();
    first.db.close();

    const second = open();
    expect(await second.limits.consume(principal, 1)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await second.limits.consume(principal, 1);
    expect(refused).toMatchObject({ allowed: false, limit: 3 });
    if (!refused.allowed) expect(refused.retryAfterMs).toBeGreaterThan(50_000);
    second.db.close();
  });
});

describe('SQLite rate limits written behind the calls', () => {
  const principal = { id: 'm1', name: 'A', role: 'contributor', attributes: { kind: 'assistant' } } as const;

  it('counts at once in the process but commits no transaction per call', async () => {
    const db = memoryDb();
    const store = sqliteRateLimitStoreFactory(db, { flushIntervalMs: 60_000 });
    const limits = createRateLimits({ defaultPerMinute: 2, storeFactory: store });
    expect((await limits.consume(principal, 1)).allowed).toBe(true);
    expect((await limits.consume(principal, 1)).allowed).toBe(true);
    expect((await limits.consume(principal, 1)).allowed).toBe(false);
    expect(db.prepare('SELECT COUNT(*) AS n FROM rate_limits').get()).toEqual({ n: 0 });
    await store.flush();
    expect(db.prepare('SELECT points FROM rate_limits').get()).toEqual({ points: 3 });
  });

  it('adds the counts of two processes sharing the file, each seeing the sum after its next write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'board-rl-'));
    dirs.push(dir);
    const file = join(dir, 'board.sqlite');
    const open = () => {
      const db = openDatabase(file);
      migrate(db);
      const store = sqliteRateLimitStoreFactory(db, { flushIntervalMs: 60_000 });
      return { db, store, limits: createRateLimits({ defaultPerMinute: 4, storeFactory: store }) };
    };
    const a = open();
    const b = open();
    expect((await a.limits.consume(principal, 1)).allowed).toBe(true);
    expect((await b.limits.consume(principal, 1)).allowed).toBe(true);
    await a.store.flush();
    await b.store.flush();
    expect(a.db.prepare('SELECT points FROM rate_limits').get()).toEqual({ points: 2 });
    // b has read the sum back: its next two calls fill the limit of 4, the third is refused.
    expect(await b.limits.consume(principal, 1)).toMatchObject({ allowed: true, remaining: 1 });
    expect((await b.limits.consume(principal, 1)).allowed).toBe(true);
    expect((await b.limits.consume(principal, 1)).allowed).toBe(false);
    await a.store.close();
    await b.store.close();
    a.db.close();
    b.db.close();
  });
});

describe('SQLite rate-limit purge', () => {
  it('deletes rows that expired over an hour ago every 1000 limiter calls', async () => {
    const db = memoryDb();
    db.prepare('INSERT INTO rate_limits (key, points, expire) VALUES (?, ?, ?)').run(
      'old',
      5,
      Date.now() - 7_200_000,
    );
    const limiter = sqliteRateLimitStoreFactory(db)({ keyPrefix: 'p', points: 1_000_000, duration: 60 });
    for (let i = 0; i < 999; i += 1) await limiter.consume('m1', 1);
    expect(db.prepare("SELECT COUNT(*) AS n FROM rate_limits WHERE key = 'old'").get()).toEqual({ n: 1 });
    await limiter.consume('m1', 1);
    expect(db.prepare("SELECT COUNT(*) AS n FROM rate_limits WHERE key = 'old'").get()).toEqual({ n: 0 });
  });
});

describe('one connection shared by the board store and the kit', () => {
  it('keeps a call-log write made during a failing board transaction', async () => {
    const db = memoryDb();
    const lock = createSerialLock();
    const store = createSqliteBoardStore(db, { lock, ownsDatabase: false });
    const log = createSqliteCallLog(db, { lock });
    let recorded: Promise<void> | undefined;
    const failing = store.transaction(async (tx) => {
      await tx.nextTaskNumber();
      recorded = log.record({
        at: '2026-07-28T10:00:00Z',
        principalId: 'm1',
        tool: 'whoami',
        outcome: 'ok',
        code: null,
        durationMs: 1,
        correlationId: 'c_kept',
      });
      await Promise.resolve();
      throw new Error('rolled back on purpose');
    });
    await expect(failing).rejects.toThrow('rolled back on purpose');
    await recorded;
    expect((await log.recent()).map((e) => e.correlationId)).toEqual(['c_kept']);
    expect(
      (db.prepare("SELECT value FROM counters WHERE name = 'task'").get() as { value: number }).value,
    ).toBe(0);
  });
});
