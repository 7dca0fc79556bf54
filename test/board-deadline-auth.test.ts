/**
 * The board's deadline and its bearer tokens over real HTTP: a call held up by a slow store answers a transient
 * DEADLINE_EXCEEDED on time and writes nothing afterwards; revoked, expired and unknown tokens, and tokens of a
 * revoked member, get HTTP 401 while valid ones keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardStore } from '../apps/board/src/store/board-store.ts';
import {
  failureMetaOf,
  startTestBoard,
  textOf,
  type TestBoard,
} from '../apps/board/src/testing/board-host.ts';

const DEADLINE_MS = 400;
const state = { slow: false, slowReadsDone: 0, transactions: 0 };

function slowing(inner: BoardStore): BoardStore {
  return {
    ...inner,
    async getTask(ref) {
      if (!state.slow) return inner.getTask(ref);
      await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS + 600));
      const task = await inner.getTask(ref);
      state.slowReadsDone += 1;
      return task;
    },
    transaction(work, signal) {
      state.transactions += 1;
      return inner.transaction(work, signal);
    },
  };
}

let tb: TestBoard;
beforeAll(async () => {
  tb = await startTestBoard({ defaultDeadlineMs: DEADLINE_MS, wrapStore: slowing });
});
afterAll(async () => {
  await tb.close();
});

describe('deadline', () => {
  it('answers DEADLINE_EXCEEDED within the deadline plus slack and writes nothing afterwards', async () => {
    const client = await tb.connect('modern', 'owner');
    try {
      const created = await client.callTool({ name: 'tasks_create', arguments: { title: 'Deadline' } });
      const ref = (created.structuredContent as { task: { ref: string } }).task.ref;
      const transactionsBefore = state.transactions;
      state.slow = true;
      const started = Date.now();
      const result = await client.callTool({ name: 'tasks_move', arguments: { ref, status: 'done' } });
      const elapsed = Date.now() - started;
      expect(result.isError).toBe(true);
      expect(failureMetaOf(result)).toMatchObject({
        category: 'transient',
        code: 'DEADLINE_EXCEEDED',
        changed: false,
        retryable: true,
      });
      expect(textOf(result)).toContain('tasks_move');
      expect(elapsed).toBeLessThan(DEADLINE_MS + 400);

      for (let i = 0; i < 100 && state.slowReadsDone === 0; i += 1)
        await new Promise((r) => setTimeout(r, 50));
      state.slow = false;
      expect(state.slowReadsDone).toBe(1);
      await new Promise((r) => setTimeout(r, 100));
      expect(state.transactions).toBe(transactionsBefore);
      expect(tb.board.db.prepare('SELECT status, version FROM tasks WHERE ref = ?').get(ref)).toEqual({
        status: 'todo',
        version: 1,
      });
    } finally {
      state.slow = false;
      await client.close();
    }
  });
});

describe('bearer tokens', () => {
  const post = (token: string) =>
    fetch(tb.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'whoami', arguments: {} },
      }),
    });

  it('refuses unknown, revoked and expired tokens and tokens of revoked members with 401', async () => {
    const services = tb.board.services;
    const maintainer = await services.members.add({ name: 'Temp', kind: 'assistant', role: 'maintainer' });
    const revoked = await services.tokens.create(maintainer.id);
    const memberToken = await services.tokens.create(maintainer.id);
    const expiring = await services.tokens.create(maintainer.id, 1);
    expect((await post(memberToken.token)).status).toBe(200);

    await services.tokens.revoke(revoked.record.id);
    await new Promise((r) => setTimeout(r, 5));
    for (const [token, reason] of [
      ['rbt_not-a-real-token', 'unknown'],
      [revoked.token, 'revoked'],
      [expiring.token, 'expired'],
    ] as const) {
      const response = await post(token);
      expect(response.status, reason).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
      const body = (await response.json()) as { id: unknown; error: { data?: { reason?: string } } };
      expect(body.id).toBe(7);
      expect(body.error.data?.reason).toBe(reason);
      expect(JSON.stringify(body)).not.toContain(token);
    }

    await services.members.revoke(maintainer.id);
    expect((await post(memberToken.token)).status).toBe(401);
    expect((await post(tb.tokens.viewer)).status).toBe(200);
  });
});
