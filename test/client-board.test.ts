import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '@recourse/board';
import { createRecourseClient } from '@recourse/client';
import type { RecourseClient } from '@recourse/client';
import { startFlakyProxy } from '@recourse/client/testing';
import type { FlakyProxy, ProxyAction } from '@recourse/client/testing';
import { startTestBoard } from '../apps/board/src/testing/board-host.ts';
import type { TestBoard } from '../apps/board/src/testing/board-host.ts';

/** A small seeded generator (mulberry32), so the drop pattern is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let board: TestBoard;

/** The board's SQLite database, opened read-only beside the server: the test checks what was stored. */
function boardDb(): Database.Database {
  const db = new Database(join(board.dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  opened.push(db);
  return db;
}
const opened: Database.Database[] = [];

beforeAll(async () => {
  board = await startTestBoard({ rateLimit: { defaultPerMinute: 100_000 } });
});
afterAll(async () => {
  for (const db of opened) db.close();
  await board.close();
});

describe('the client against the real board', () => {
  it('creates exactly 200 tasks with 200 keyed tasks_create calls (4 at a time) while connections drop at random', async () => {
    const random = seeded(20260728);
    let rolls = 0;
    const proxy: FlakyProxy = await startFlakyProxy({
      target: board.url,
      decide: (request): ProxyAction => {
        if (request.tool !== 'tasks_create') return 'pass';
        rolls++;
        const roll = random();
        return roll < 0.12 ? 'drop_before' : roll < 0.24 ? 'drop_after' : 'pass';
      },
    });
    const client = createRecourseClient({
      target: { url: proxy.url, token: board.tokens.contributor },
      name: 'board',
      protocol: 'modern',
      retry: { maxAttempts: 8, initialDelayMs: 2, maxDelayMs: 10 },
      breaker: false,
      timeoutMs: 20_000,
    });
    try {
      let retried = 0;
      let next = 1;
      const worker = async (): Promise<void> => {
        while (next <= 200) {
          const i = next++;
          const success = await client.callTool('tasks_create', { title: `Story task ${i}` });
          if (success.attempts.length > 1) retried++;
          expect(success.attempts.at(-1)?.outcome).toBe('ok');
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      expect(proxy.counts.drop_before).toBeGreaterThan(5);
      expect(proxy.counts.drop_after).toBeGreaterThan(5);
      expect(retried).toBeGreaterThan(5);
      expect(rolls).toBe(200 + proxy.counts.drop_before + proxy.counts.drop_after);
      const row = boardDb()
        .prepare('SELECT COUNT(*) AS total, COUNT(DISTINCT title) AS titles FROM tasks')
        .get() as { total: number; titles: number };
      expect(row).toEqual({ total: 200, titles: 200 });
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it('ends a keyless write whose answer was lost as ambiguous, without repeating it; a keyed one is repeated once', async () => {
    const dropOnce = new Set(['tasks_update', 'tasks_comment']);
    const proxy = await startFlakyProxy({
      target: board.url,
      decide: (request) =>
        request.tool !== undefined && dropOnce.delete(request.tool) ? 'drop_after' : 'pass',
    });
    const client = createRecourseClient({
      target: { url: proxy.url, token: board.tokens.owner },
      protocol: 'modern',
    });
    try {
      const created = await client.callTool('tasks_create', { title: 'Drop target' });
      const ref = /T-\d+/.exec(JSON.stringify(created.result.content))?.[0];
      expect(ref).toBeDefined();

      const update = await client.tryCallTool('tasks_update', {
        ref,
        expectedVersion: 1,
        title: 'Renamed once',
      });
      expect(update.ok || update.error.code).toBe('CALL_AMBIGUOUS');
      if (update.ok) return;
      expect(update.error.attempts).toHaveLength(1);
      const task = boardDb()
        .prepare('SELECT title, version FROM tasks WHERE title = ?')
        .get('Renamed once') as { title: string; version: number } | undefined;
      expect(task?.version).toBe(2); // the server acted once; the client did not repeat it

      const comment = await client.callTool('tasks_comment', { ref, body: 'Only once, please.' });
      expect(comment.attempts.map((a) => a.outcome)).toEqual(['transport', 'ok']);
      const comments = boardDb()
        .prepare('SELECT COUNT(*) AS n FROM comments WHERE body = ?')
        .get('Only once, please.') as {
        n: number;
      };
      expect(comments.n).toBe(1);
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it('reroutes tasks_search to its declared fallback while its breaker is open, and says so', async () => {
    const proxy = await startFlakyProxy({
      target: board.url,
      decide: (request) => (request.tool === 'tasks_search' ? { status: 503 } : 'pass'),
    });
    const direct: RecourseClient = createRecourseClient({
      target: { url: board.url, token: board.tokens.viewer },
      name: 'board-direct',
      protocol: 'legacy',
    });
    const client = createRecourseClient({
      target: { url: proxy.url, token: board.tokens.viewer },
      name: 'board-via-proxy',
      protocol: 'modern',
      retry: { maxAttempts: 1 },
      breaker: { threshold: 2, halfOpenAfterMs: 60_000 },
      fallbacks: { tasks_search: { tool: 'tasks_search', client: direct } },
    });
    try {
      for (let i = 0; i < 2; i++) {
        const failed = await client.tryCallTool('tasks_search', { query: 'Story' });
        expect(failed.ok || failed.error.code).toBe('CALL_TRANSPORT');
      }
      expect(client.breakerState('tasks_search')).toBe('open');
      const success = await client.callTool('tasks_search', { query: 'Story', limit: 5 });
      expect(success.reroutedFrom).toEqual({
        server: 'board-via-proxy',
        tool: 'tasks_search',
        reason: 'circuit_open',
      });
      expect(success.server).toBe('board-direct');
      expect(success.result.isError).not.toBe(true);
      expect(proxy.counts.status).toBe(2);
    } finally {
      await client.close();
      await direct.close();
      await proxy.close();
    }
  });
});
