/**
 * A board whose SQLite database another process holds locked, over real HTTP: the event loop is never blocked
 * (the protected-resource metadata and other requests answer at once), a tool call answers within its deadline
 * with a `transient` DATABASE_BUSY failure that says when to retry, and the refused call reaches the call log
 * once the lock is released. Also: a tool whose transaction fails says that nothing was changed.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../apps/board/src/store/open-database.sqlite.ts';
import type { BoardStore } from '../apps/board/src/store/board-store.ts';
import {
  failureMetaOf,
  startTestBoard,
  textOf,
  type TestBoard,
} from '../apps/board/src/testing/board-host.ts';
import { holdWriteLock } from '../apps/board/src/testing/lock-holder.ts';

const HOLD_MS = 6000;
let tb: TestBoard;
let failTransactions = false;
beforeAll(async () => {
  tb = await startTestBoard({
    defaultDeadlineMs: 4000,
    wrapStore: (inner): BoardStore => ({
      ...inner,
      transaction: (work, signal) =>
        failTransactions
          ? Promise.reject(
              Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' }),
            )
          : inner.transaction(work, signal),
    }),
  });
});
afterAll(async () => {
  await tb.close();
});

describe('a database locked by another process', () => {
  it('keeps serving metadata, answers a tool call with DATABASE_BUSY within its deadline, and logs the call', async () => {
    const client = await tb.connect('modern', 'owner');
    try {
      const holder = await holdWriteLock(join(tb.dataDir, DATABASE_FILE), HOLD_MS);
      const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', tb.url).href;
      const callStarted = performance.now();
      const call = client.callTool({ name: 'tasks_create', arguments: { title: 'written while locked' } });
      // While the call waits for the lock, the metadata document (no database) answers at once.
      await new Promise((r) => setTimeout(r, 300));
      const metadataTimes: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const started = performance.now();
        const metadata = await fetch(metadataUrl);
        await metadata.text();
        metadataTimes.push(performance.now() - started);
        expect(metadata.status).toBe(200);
      }
      const metadataMs = Math.max(...metadataTimes);
      const result = await call;
      const callMs = performance.now() - callStarted;
      console.log(
        `busy database: slowest of 5 metadata GETs ${metadataMs.toFixed(0)} ms, tool call answered in ${callMs.toFixed(0)} ms`,
      );
      // Generous bounds on a shared machine: the lock is held for 6 s, the deadline is 4 s.
      expect(metadataMs).toBeLessThan(1500);
      expect(callMs).toBeLessThan(4000 + 2000);
      expect(failureMetaOf(result)).toMatchObject({
        category: 'transient',
        code: 'DATABASE_BUSY',
        retryable: true,
        changed: false,
      });
      const text = textOf(result);
      expect(text).toContain('locked by another process');
      expect(text).toMatch(/Nothing was changed/);
      expect(text).toMatch(/1 s/);
      const correlationId = String(failureMetaOf(result)?.['correlationId']);

      await holder.released;
      let logged;
      for (let i = 0; i < 200 && logged === undefined; i += 1) {
        const recent = await tb.board.callLog.recent({ tool: 'tasks_create', limit: 10 });
        logged = recent.find((e) => e.correlationId === correlationId);
        if (logged === undefined) await new Promise((r) => setTimeout(r, 50));
      }
      expect(logged).toMatchObject({ outcome: 'transient', code: 'DATABASE_BUSY' });

      const after = await client.callTool({ name: 'tasks_create', arguments: { title: 'after the lock' } });
      expect(after.isError).not.toBe(true);
    } finally {
      await client.close();
    }
  });

  it('says that nothing was changed when the write transaction itself fails', async () => {
    const client = await tb.connect('modern', 'owner');
    try {
      failTransactions = true;
      const result = await client.callTool({ name: 'tasks_create', arguments: { title: 'never written' } });
      failTransactions = false;
      expect(failureMetaOf(result)).toMatchObject({ category: 'internal', changed: false });
      expect(textOf(result)).toContain('Nothing was changed');
      expect(textOf(result)).not.toMatch(/part of the work/i);
    } finally {
      failTransactions = false;
      await client.close();
    }
  });
});
