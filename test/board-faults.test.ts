/**
 * Fault injection into the board's store, over real HTTP: a driver error full of secrets reaches the model only
 * as a correlation id (the full error is in the server log under it), and a slow call the client abandons
 * writes nothing after the abort.
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

const SECRETS = [
  'postgres://board_admin:S3cr3t-Pa55@db-primary.corp.internal:5432/board',
  'S3cr3t-Pa55',
  '10.0.3.7',
  'db-primary.corp.internal',
  '/srv/recourse/apps/board/src/store/board-store.pg.ts',
  'at PgPool.connect',
];

function driverError(): Error {
  const error = new Error(
    'connect ECONNREFUSED 10.0.3.7:5432 while opening postgres://board_admin:S3cr3t-Pa55@db-primary.corp.internal:5432/board',
  );
  error.stack = [
    `Error: ${error.message}`,
    '    at PgPool.connect (/srv/recourse/node_modules/pg-pool/index.js:45:11)',
    '    at async getTask (/srv/recourse/apps/board/src/store/board-store.pg.ts:120:5)',
  ].join('\n');
  return error;
}

/**
 * A store whose reads of a task fail (faulty) or take 1.5 s (slow) while switched on, and whose transactions wait
 * 1.5 s before starting (slowWrites), noting whether the call's signal fired meanwhile; counts transactions.
 */
function injecting(inner: BoardStore) {
  const state = {
    faulty: false,
    slow: false,
    slowWrites: false,
    slowReadsDone: 0,
    transactions: 0,
    signalFired: undefined as undefined | { afterMs: number; reason: string },
    writeOutcome: undefined as undefined | 'written' | 'refused',
  };
  // A read of one task, alone or with its comments and history (tasks_get), fails or is slow alike.
  const read = async <T>(work: () => Promise<T>): Promise<T> => {
    if (state.faulty) throw driverError();
    if (state.slow) {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const found = await work();
      state.slowReadsDone += 1;
      return found;
    }
    return work();
  };
  const store: BoardStore = {
    ...inner,
    getTask: (ref) => read(() => inner.getTask(ref)),
    getTaskDetail: (ref) => read(() => inner.getTaskDetail(ref)),
    async transaction(work, signal) {
      state.transactions += 1;
      if (state.slowWrites) {
        const started = Date.now();
        signal?.addEventListener('abort', () => {
          state.signalFired = { afterMs: Date.now() - started, reason: String(signal.reason) };
        });
        await new Promise((resolve) => setTimeout(resolve, 1500));
        try {
          const result = await inner.transaction(work, signal);
          state.writeOutcome = 'written';
          return result;
        } catch (error) {
          state.writeOutcome = 'refused';
          throw error;
        }
      }
      return inner.transaction(work, signal);
    },
  };
  return { store, state };
}

let tb: TestBoard;
let state: ReturnType<typeof injecting>['state'];
beforeAll(async () => {
  tb = await startTestBoard({
    wrapStore: (inner) => {
      const injected = injecting(inner);
      state = injected.state;
      return injected.store;
    },
  });
});
afterAll(async () => {
  await tb.close();
});

describe.each(['modern', 'legacy'] as Era[])('store faults, %s client', (era) => {
  it('hides a driver error behind a correlation id and logs it in full under that id', async () => {
    const client = await tb.connect(era, 'owner');
    try {
      state.faulty = true;
      const result = await client.callTool({ name: 'tasks_get', arguments: { ref: 'T-1' } });
      state.faulty = false;
      expect(result.isError).toBe(true);
      const text = textOf(result);
      for (const secret of SECRETS) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/ECONNREFUSED|postgres|5432/);
      const meta = failureMetaOf(result);
      expect(meta).toMatchObject({ category: 'internal', retryable: false, changed: false });
      const correlationId = String(meta?.['correlationId']);
      expect(correlationId).toMatch(/^c_/);
      expect(text).toContain(correlationId);
      expect(JSON.stringify(result)).not.toContain('S3cr3t');

      const logged = tb.logLines.filter(
        (line) => line['correlationId'] === correlationId && line['err'] !== undefined,
      );
      expect(logged).toHaveLength(1);
      const err = logged[0]?.['err'] as { message: string; stack: string };
      expect(err.message).toContain('postgres://board_admin:S3cr3t-Pa55@db-primary.corp.internal:5432/board');
      expect(err.stack).toContain('board-store.pg.ts:120:5');
    } finally {
      state.faulty = false;
      await client.close();
    }
  });

  it('writes nothing after the client aborts a slow call', async () => {
    const client = await tb.connect(era, 'owner');
    try {
      const created = await client.callTool({ name: 'tasks_create', arguments: { title: `Slow ${era}` } });
      const ref = (created.structuredContent as { task: { ref: string } }).task.ref;
      const readsBefore = state.slowReadsDone;
      const transactionsBefore = state.transactions;
      state.slow = true;
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'tasks_move', arguments: { ref, status: 'done' } },
        { signal: controller.signal },
      );
      const settled = call.then(
        () => 'resolved',
        () => 'rejected',
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      controller.abort('user pressed stop');
      expect(await settled).toBe('rejected');

      for (let i = 0; i < 100 && state.slowReadsDone === readsBefore; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      state.slow = false;
      expect(state.slowReadsDone).toBe(readsBefore + 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(state.transactions).toBe(transactionsBefore);
      const row = tb.board.db.prepare('SELECT status, version FROM tasks WHERE ref = ?').get(ref);
      expect(row).toEqual({ status: 'todo', version: 1 });

      const entry = (await tb.board.callLog.recent({ tool: 'tasks_move', limit: 1 }))[0];
      expect(entry?.outcome).not.toBe('ok');
      expect(entry?.code).toMatch(/CANCEL/);
    } finally {
      state.slow = false;
      await client.close();
    }
  });

  it("fires the handler's signal when the client aborts a slow write, and the write is refused", async () => {
    const client = await tb.connect(era, 'owner');
    try {
      const before = await tb.board.services.store.countTasks();
      state.slowWrites = true;
      state.signalFired = undefined;
      state.writeOutcome = undefined;
      const controller = new AbortController();
      const settled = client
        .callTool(
          { name: 'tasks_create', arguments: { title: `Never written ${era}` } },
          { signal: controller.signal },
        )
        .then(
          () => 'resolved',
          () => 'rejected',
        );
      await new Promise((resolve) => setTimeout(resolve, 300));
      controller.abort('user pressed stop');
      expect(await settled).toBe('rejected');
      for (let i = 0; i < 100 && state.writeOutcome === undefined; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      state.slowWrites = false;
      const fired = state.signalFired as { afterMs: number; reason: string } | undefined;
      expect(fired).toBeDefined();
      expect(fired?.afterMs).toBeLessThan(1500);
      expect(state.writeOutcome).toBe('refused');
      expect(await tb.board.services.store.countTasks()).toBe(before);
    } finally {
      state.slowWrites = false;
      await client.close();
    }
  });
});
