/**
 * The contract every tasks-extension {@link TaskStore} of the board passes (SQLite and PostgreSQL): run it with
 * `describeTaskStoreContract(name, open)` from the store's own test file.
 *
 * @packageDocumentation
 */
import { describe, expect, it } from 'vitest';
import type { StoredTask, TaskStore } from '@recourse/server';

/** A working task `taskId` of member `m1` on instance `i1`, with `patch` applied: the contract's fixture. */
export function task(taskId: string, patch: Partial<StoredTask> = {}): StoredTask {
  return {
    taskId,
    ownerId: 'm1',
    tool: 'board_export',
    status: 'working',
    statusMessage: null,
    createdAt: 1_000,
    lastUpdatedAt: 1_000,
    ttlMs: 10_000,
    pollIntervalMs: 500,
    result: null,
    error: null,
    inputRequests: {},
    inputResponses: {},
    cancelRequested: false,
    instanceId: 'i1',
    leaseUntil: 5_000,
    version: 1,
    ...patch,
  };
}

/** Declares the contract tests; `open` gives a fresh, empty, migrated store. */
export function describeTaskStoreContract(name: string, open: () => Promise<TaskStore>): void {
  describe(`${name} task store`, () => {
    it('stores a task and finds it exactly as stored; an unknown id is undefined', async () => {
      const store = await open();
      const stored = task('t1', { inputRequests: { a: { method: 'elicitation/create', params: {} } } });
      await store.insert(stored);
      expect(await store.find('t1')).toEqual(stored);
      expect(await store.find('nope')).toBeUndefined();
      await expect(store.insert(stored)).rejects.toThrow();
    });

    it('patches only the current version of an active task, and never a settled one', async () => {
      const store = await open();
      await store.insert(task('t2'));
      const working = await store.patch('t2', 1, { statusMessage: 'half way', cancelRequested: true }, 2_000);
      expect(working).toMatchObject({
        version: 2,
        lastUpdatedAt: 2_000,
        statusMessage: 'half way',
        cancelRequested: true,
      });
      expect(await store.patch('t2', 1, { statusMessage: 'stale' }, 2_100)).toBeUndefined();
      const done = await store.patch(
        't2',
        2,
        { status: 'completed', result: { content: [{ type: 'text', text: 'ok' }], isError: false } },
        2_200,
      );
      expect(done?.result).toEqual({ content: [{ type: 'text', text: 'ok' }], isError: false });
      expect(await store.patch('t2', 3, { status: 'failed' }, 2_300)).toBeUndefined();
      expect((await store.find('t2'))?.status).toBe('completed');
    });

    it('renews the leases of one instance’s active tasks and names those with a cancel request', async () => {
      const store = await open();
      await store.insert(task('t3'));
      await store.insert(task('t4', { cancelRequested: true }));
      await store.insert(task('t5', { instanceId: 'i2' }));
      await store.insert(task('t6', { status: 'completed' }));
      expect(await store.renewLeases('i1', 9_000)).toEqual(['t4']);
      expect((await store.find('t3'))?.leaseUntil).toBe(9_000);
      expect((await store.find('t5'))?.leaseUntil).toBe(5_000);
    });

    it('fails active tasks whose lease ended, and purges tasks past their ttl', async () => {
      const store = await open();
      await store.insert(task('t7', { leaseUntil: 3_000 }));
      await store.insert(task('t8', { leaseUntil: 8_000 }));
      await store.insert(task('t9', { leaseUntil: 1_000, status: 'completed' }));
      const error = { code: -32603, message: 'instance stopped' };
      expect(await store.failOrphans(4_000, error, 'instance stopped')).toBe(1);
      expect(await store.find('t7')).toMatchObject({
        status: 'failed',
        error,
        statusMessage: 'instance stopped',
      });
      expect((await store.find('t8'))?.status).toBe('working');
      expect((await store.find('t9'))?.status).toBe('completed');
      expect(await store.purgeExpired(11_001)).toBe(3);
      expect(await store.find('t7')).toBeUndefined();
    });
  });
}
