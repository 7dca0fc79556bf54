/**
 * The contract every {@link BoardStore} passes (SQLite now, PostgreSQL later): run it with
 * `describeBoardStoreContract(name, open)` from the store's own test file.
 *
 * @packageDocumentation
 */
import { describe, expect, it } from 'vitest';
import type { Task } from '../domain/task.ts';
import type { BoardStore } from './board-store.ts';

const member = {
  id: 'm_owner1',
  name: 'O',
  kind: 'person',
  role: 'owner',
  createdAt: '2026-01-01T00:00:00Z',
  revokedAt: null,
} as const;

function task(n: number, patch: Partial<Task> = {}): Task {
  return {
    ref: `T-${n}`,
    title: `Task ${n}`,
    description: '',
    status: 'todo',
    assignee: null,
    labels: [],
    due: null,
    version: 1,
    createdBy: member.id,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...patch,
  };
}

/** Declares the store contract tests for `name`; `open` returns a fresh, empty, migrated store. */
export function describeBoardStoreContract(name: string, open: () => Promise<BoardStore>): void {
  describe(`${name} board store contract`, () => {
    it('never hands out a task number twice, even after a delete', async () => {
      const store = await open();
      await store.transaction((tx) => tx.insertMember(member));
      const first = await store.transaction(async (tx) => {
        const n = await tx.nextTaskNumber();
        await tx.insertTask(task(n));
        return n;
      });
      await store.transaction((tx) => tx.deleteTask(`T-${first}`));
      const second = await store.transaction((tx) => tx.nextTaskNumber());
      expect(second).toBe(first + 1);
      expect(await store.countTasks()).toBe(0);
    });

    it('reads a task with its comments and history in order, and nothing for a missing ref', async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        await tx.insertMember(member);
        await tx.insertTask(task(1));
        await tx.insertTask(task(2));
        await tx.insertComment({ ref: 'T-1', authorId: member.id, body: 'first', createdAt: 'a' });
        await tx.insertComment({ ref: 'T-2', authorId: member.id, body: 'elsewhere', createdAt: 'b' });
        await tx.insertComment({ ref: 'T-1', authorId: member.id, body: 'second', createdAt: 'c' });
        const entry = { memberId: member.id, field: null, from: null, to: null };
        await tx.insertHistory([
          { ...entry, ref: 'T-1', action: 'created', at: 'a' },
          { ...entry, ref: 'T-2', action: 'created', at: 'b' },
          { ...entry, ref: 'T-1', action: 'commented', at: 'c' },
        ]);
      });
      const detail = await store.getTaskDetail('T-1');
      expect(detail?.task).toEqual(await store.getTask('T-1'));
      expect(detail?.comments.map((c) => c.body)).toEqual(['first', 'second']);
      expect(detail?.history.map((h) => h.action)).toEqual(['created', 'commented']);
      expect(detail?.comments).toEqual(await store.listComments('T-1'));
      expect(detail?.history).toEqual(await store.listHistory('T-1'));
      expect(await store.getTaskDetail('T-9')).toBeUndefined();
    });

    it('updates only at the expected version and bumps the version', async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        await tx.insertMember(member);
        await tx.insertTask(task(1));
      });
      expect(await store.transaction((tx) => tx.updateTask('T-1', 2, { title: 'stale' }, 'now'))).toBe(false);
      expect(
        await store.transaction((tx) => tx.updateTask('T-1', 1, { title: 'fresh', labels: ['a'] }, 'now')),
      ).toBe(true);
      const t = await store.getTask('T-1');
      expect(t).toMatchObject({ title: 'fresh', labels: ['a'], version: 2, updatedAt: 'now' });
    });

    it('rolls back every write of a transaction that throws or whose signal fired', async () => {
      const store = await open();
      await store.transaction((tx) => tx.insertMember(member));
      await expect(
        store.transaction(async (tx) => {
          await tx.insertTask(task(1));
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const controller = new AbortController();
      await expect(
        store.transaction(async (tx) => {
          await tx.insertTask(task(2));
          controller.abort(new Error('cancelled by client'));
        }, controller.signal),
      ).rejects.toThrow('cancelled by client');
      expect(await store.countTasks()).toBe(0);
    });

    it('searches by text, status, assignee and label with paging', async () => {
      const store = await open();
      await store.transaction(async (tx) => {
        await tx.insertMember(member);
        await tx.insertTask(
          task(1, { title: 'Fix 100% login bug', labels: ['bug'], status: 'doing', assignee: member.id }),
        );
        await tx.insertTask(task(2, { title: 'Write docs', labels: ['docs'] }));
        await tx.insertTask(task(3, { title: 'Another bug', labels: ['bug', 'ui'] }));
      });
      expect((await store.searchTasks({ text: 'BUG', limit: 10, offset: 0 })).total).toBe(2);
      expect(
        (await store.searchTasks({ text: '100%', limit: 10, offset: 0 })).tasks.map((t) => t.ref),
      ).toEqual(['T-1']);
      expect(
        (await store.searchTasks({ label: 'bug', status: 'todo', limit: 10, offset: 0 })).tasks.map(
          (t) => t.ref,
        ),
      ).toEqual(['T-3']);
      expect((await store.searchTasks({ assignee: null, limit: 10, offset: 0 })).total).toBe(2);
      const page = await store.searchTasks({ limit: 2, offset: 2 });
      expect(page).toMatchObject({ total: 3 });
      expect(page.tasks.map((t) => t.ref)).toEqual(['T-3']);
    });

    it('counts active owners, leaving out revoked ones and other roles', async () => {
      const store = await open();
      const owner2 = { ...member, id: 'm_owner2' };
      const maintainer = { ...member, id: 'm_maint1', role: 'maintainer' as const };
      await store.transaction(async (tx) => {
        await tx.insertMember(member);
        await tx.insertMember(owner2);
        await tx.insertMember(maintainer);
      });
      expect(await store.transaction((tx) => tx.countActiveOwners())).toBe(2);
      await store.transaction((tx) => tx.updateMember('m_owner2', { revokedAt: '2026-02-01T00:00:00Z' }));
      expect(await store.transaction((tx) => tx.countActiveOwners())).toBe(1);
    });

    it('finds a token and its member by token id or hash in one lookup, revocations included', async () => {
      const store = await open();
      const token = {
        id: 'tok_1',
        memberId: member.id,
        hash: 'a'.repeat(64),
        prefix: 'rbt_abcdefgh',
        createdAt: '2026-01-01T00:00:00Z',
        expiresAt: '2026-03-01T00:00:00Z',
        revokedAt: null,
      };
      await store.transaction(async (tx) => {
        await tx.insertMember(member);
        await tx.insertToken(token);
      });
      expect(await store.findTokenHolder('tok_1')).toEqual({ token, member });
      expect(await store.findTokenHolder('tok_2')).toBeUndefined();
      expect(await store.findTokenHolderByHash(token.hash)).toEqual({ token, member });
      expect(await store.findTokenHolderByHash('b'.repeat(64))).toBeUndefined();
      await store.transaction(async (tx) => {
        await tx.revokeToken('tok_1', '2026-02-01T00:00:00Z');
        await tx.updateMember(member.id, { role: 'viewer' });
      });
      const changed = {
        token: { ...token, revokedAt: '2026-02-01T00:00:00Z' },
        member: { ...member, role: 'viewer' },
      };
      expect(await store.findTokenHolder('tok_1')).toEqual(changed);
      expect(await store.findTokenHolderByHash(token.hash)).toEqual(changed);
    });

    it('runs concurrent transactions one at a time, handing out distinct task numbers', async () => {
      const store = await open();
      await store.transaction((tx) => tx.insertMember(member));
      const numbers = await Promise.all(
        Array.from({ length: 20 }, () =>
          store.transaction(async (tx) => {
            const n = await tx.nextTaskNumber();
            await tx.insertTask(task(n));
            return n;
          }),
        ),
      );
      expect(new Set(numbers).size).toBe(20);
      expect(await store.countTasks()).toBe(20);
    });
  });
}
