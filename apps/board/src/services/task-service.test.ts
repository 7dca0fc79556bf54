import { describe, expect, it } from 'vitest';
import { isToolFailure, type FailureData } from '@recourse/core';
import { boardFixture } from '../testing/board-fixture.ts';

async function failureOf(promise: Promise<unknown>): Promise<FailureData> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isToolFailure(error)) throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return error.failure;
}

describe('task service', () => {
  it('creates tasks with increasing refs at version 1 and records history', async () => {
    const f = await boardFixture();
    const a = await f.services.tasks.create(f.as(f.members.contributor), { title: 'A', labels: ['x', 'x'] });
    const b = await f.services.tasks.create(f.as(f.members.owner), { title: 'B', due: '2026-07-28' });
    expect([a.ref, b.ref]).toEqual(['T-1', 'T-2']);
    expect(a).toMatchObject({
      version: 1,
      status: 'todo',
      labels: ['x'],
      createdBy: f.members.contributor.id,
    });
    const detail = await f.services.tasks.get('T-1');
    expect(detail.history).toMatchObject([{ action: 'created', memberId: f.members.contributor.id }]);
  });

  it('refuses a stale expectedVersion with the current version and tasks_get', async () => {
    const f = await boardFixture();
    const owner = f.as(f.members.owner);
    await f.services.tasks.create(owner, { title: 'A' });
    await f.services.tasks.update(owner, 'T-1', 1, { title: 'A2' });
    const failure = await failureOf(f.services.tasks.update(owner, 'T-1', 1, { title: 'A3' }));
    expect(failure).toMatchObject({
      category: 'conflict',
      code: 'VERSION_CONFLICT',
      changed: false,
      retryable: false,
    });
    expect(failure.message).toContain('version 2');
    expect(failure.next).toContain('tasks_get');
    expect((await f.services.tasks.get('T-1')).task).toMatchObject({ title: 'A2', version: 2 });
  });

  it('names the ref, the format and tasks_search for a missing task', async () => {
    const f = await boardFixture();
    const failure = await failureOf(f.services.tasks.move(f.as(f.members.owner), 'T-9', 'done'));
    expect(failure).toMatchObject({ category: 'not_found', code: 'TASK_NOT_FOUND', changed: false });
    expect(`${failure.message} ${failure.expected} ${failure.next}`).toMatch(
      /T-9[\s\S]*T-12[\s\S]*tasks_search/,
    );
  });

  it('lets contributors update and move only tasks they created or are assigned to', async () => {
    const f = await boardFixture();
    const theirs = await f.services.tasks.create(f.as(f.members.owner), { title: 'Owner task' });
    const failure = await failureOf(f.services.tasks.move(f.as(f.members.contributor), theirs.ref, 'doing'));
    expect(failure).toMatchObject({ category: 'permission', code: 'PERMISSION_CONDITION_UNMET' });
    expect(failure.permission).toEqual({
      missing: 'tasks:move',
      role: 'contributor',
      grantedTo: ['owner', 'maintainer'],
    });
    expect(failure.message).toContain('tasks you created or are assigned to');
    expect((await f.services.tasks.get(theirs.ref)).task.status).toBe('todo');

    await f.services.tasks.assign(f.as(f.members.contributor), theirs.ref, f.members.contributor.id);
    const moved = await f.services.tasks.move(f.as(f.members.contributor), theirs.ref, 'doing');
    expect(moved).toMatchObject({ changed: true, task: { status: 'doing', version: 3 } });
  });

  it('lets contributors assign only themselves and never take a task from someone else', async () => {
    const f = await boardFixture();
    const ctx = f.as(f.members.contributor);
    await f.services.tasks.create(f.as(f.members.owner), { title: 'X' });
    expect((await failureOf(f.services.tasks.assign(ctx, 'T-1', f.members.contributor2.id))).code).toBe(
      'PERMISSION_CONDITION_UNMET',
    );
    await f.services.tasks.assign(f.as(f.members.owner), 'T-1', f.members.contributor2.id);
    expect((await failureOf(f.services.tasks.assign(ctx, 'T-1', f.members.contributor.id))).code).toBe(
      'PERMISSION_CONDITION_UNMET',
    );
    expect((await f.services.tasks.get('T-1')).task.assignee).toBe(f.members.contributor2.id);
  });

  it('refuses unknown assignees naming members_list, and treats repeats of move and assign as no-ops', async () => {
    const f = await boardFixture();
    const owner = f.as(f.members.owner);
    await f.services.tasks.create(owner, { title: 'X' });
    const failure = await failureOf(f.services.tasks.assign(owner, 'T-1', 'm_nobody1'));
    expect(failure).toMatchObject({ category: 'not_found', code: 'MEMBER_NOT_FOUND' });
    expect(failure.next).toContain('members_list');
    await f.services.tasks.move(owner, 'T-1', 'review');
    expect(await f.services.tasks.move(owner, 'T-1', 'review')).toMatchObject({
      changed: false,
      task: { version: 2 },
    });
    await f.services.tasks.assign(owner, 'T-1', f.members.viewer.id);
    expect(await f.services.tasks.assign(owner, 'T-1', f.members.viewer.id)).toMatchObject({
      changed: false,
    });
  });

  it('writes nothing when the commit guard refuses', async () => {
    const f = await boardFixture();
    const refusing = {
      principal: f.as(f.members.owner).principal,
      commit<T>(): T {
        throw new Error('call was cancelled');
      },
    };
    await expect(f.services.tasks.create(refusing, { title: 'never' })).rejects.toThrow('cancelled');
    expect(await f.services.store.countTasks()).toBe(0);
  });

  it('deletes a task with its comments and keeps its history', async () => {
    const f = await boardFixture();
    const owner = f.as(f.members.owner);
    await f.services.tasks.create(owner, { title: 'X' });
    await f.services.tasks.comment(owner, 'T-1', 'hello');
    await f.services.tasks.delete(owner, 'T-1');
    expect((await failureOf(f.services.tasks.get('T-1'))).code).toBe('TASK_NOT_FOUND');
    expect(await f.services.store.listComments('T-1')).toEqual([]);
    expect((await f.services.store.listHistory('T-1')).map((h) => h.action)).toEqual([
      'created',
      'commented',
      'deleted',
    ]);
  });
  it('imports tasks all or nothing with fresh refs', async () => {
    const f = await boardFixture();
    const maintainer = f.as(f.members.maintainer);
    const failure = await failureOf(
      f.services.tasks.importTasks(maintainer, [{ title: 'ok' }, { title: 'bad', assignee: 'm_ghost123' }]),
    );
    expect(failure).toMatchObject({ code: 'MEMBER_NOT_FOUND', field: 'tasks[1].assignee' });
    expect(await f.services.store.countTasks()).toBe(0);
    const tasks = await f.services.tasks.importTasks(maintainer, [
      { title: 'one' },
      { title: 'two', assignee: f.members.viewer.id, labels: ['a'] },
    ]);
    expect(tasks.map((t) => t.ref)).toEqual(['T-1', 'T-2']);
    expect(tasks[1]).toMatchObject({
      assignee: f.members.viewer.id,
      version: 1,
      createdBy: f.members.maintainer.id,
    });
  });
});
