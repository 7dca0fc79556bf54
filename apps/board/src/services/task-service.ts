/**
 * The task service: every rule about tasks lives here (conditional permissions, optimistic concurrency,
 * history). Writes run through the caller's `commit` guard and one store transaction.
 *
 * @packageDocumentation
 */
import type { Principal } from '@recourse/server';
import { conditionUnmet, memberNotFound, taskNotFound, versionConflict } from '../domain/board-failures.ts';
import { boardPermissions, grantOf } from '../domain/roles.ts';
import { taskRef } from '../domain/task.ts';
import type { Comment, HistoryEntry, Task, TaskStatus } from '../domain/task.ts';
import type { BoardStore, BoardTx, TaskDetail, TaskPatch, TaskQuery } from '../store/board-store.ts';
import type { WriteContext } from './write-context.ts';

/** The fields of a new task. */
export interface NewTask {
  readonly title: string;
  readonly description?: string;
  readonly status?: TaskStatus;
  readonly assignee?: string | null;
  readonly labels?: readonly string[];
  readonly due?: string | null;
}

/** The fields {@link TaskService.update} may change. */
export type TaskEdit = Partial<Pick<Task, 'title' | 'description' | 'labels' | 'due'>>;

/** A task with its comments and history. */
export type { TaskDetail } from '../store/board-store.ts';

/** The result of a write that may have been a no-op (moving to the status a task already has). */
export interface TaskChange {
  readonly task: Task;
  readonly changed: boolean;
}

function render(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Creates the task service over `store`. `now` (default `() => new Date()`) stamps every write. */
export function createTaskService(store: BoardStore, options: { now?: () => Date } = {}) {
  const now = () => (options.now ?? (() => new Date()))().toISOString();
  const fullGrantees = (permission: string) =>
    boardPermissions.rolesGranting(permission).filter((role) => grantOf(role, permission) === 'full');

  /** Refuses when `actor` holds `permission` only for own or assigned tasks and `task` is neither. */
  function checkOwnOrAssigned(actor: Principal, permission: string, task: Task, verb: string): void {
    if (grantOf(actor.role, permission) !== 'own-or-assigned') return;
    if (task.createdBy === actor.id || task.assignee === actor.id) return;
    throw conditionUnmet({
      permission,
      role: actor.role ?? 'none',
      grantedTo: fullGrantees(permission),
      condition: `for tasks you created or are assigned to; ${task.ref} was created by ${task.createdBy} and is ${
        task.assignee === null ? 'unassigned' : `assigned to ${task.assignee}`
      }, so you cannot ${verb} it`,
      next:
        task.assignee === null
          ? `Assign ${task.ref} to yourself with tasks_assign first, or ask an owner or maintainer to ${verb} it.`
          : `Ask ${task.assignee}, an owner or a maintainer to ${verb} it.`,
    });
  }

  /** Refuses when `actor` may only assign themselves and this assignment is about someone else. */
  function checkSelfOnly(actor: Principal, task: Task, assignee: string | null): void {
    if (grantOf(actor.role, 'tasks:assign') !== 'self-only') return;
    const selfAssign = assignee === actor.id;
    const selfUnassign = assignee === null && task.assignee === actor.id;
    const takesFromOther = task.assignee !== null && task.assignee !== actor.id;
    if ((selfAssign || selfUnassign) && !takesFromOther) return;
    throw conditionUnmet({
      permission: 'tasks:assign',
      role: actor.role ?? 'none',
      grantedTo: fullGrantees('tasks:assign'),
      condition: `to assign unassigned tasks to yourself or unassign yourself; ${task.ref} is ${
        task.assignee === null ? 'unassigned' : `assigned to ${task.assignee}`
      } and you asked for ${assignee === null ? 'nobody' : assignee}`,
      next: `Pass your own member id (${actor.id}) as assignee, or ask an owner or maintainer.`,
    });
  }

  async function requireTask(reader: Pick<BoardStore | BoardTx, 'getTask'>, ref: string): Promise<Task> {
    const task = await reader.getTask(ref);
    if (!task) throw taskNotFound(ref);
    return task;
  }

  async function requireActiveMember(
    reader: Pick<BoardStore | BoardTx, 'getMember'>,
    id: string,
    argument: string,
  ) {
    const member = await reader.getMember(id);
    if (!member || member.revokedAt !== null) throw memberNotFound(id, argument);
    return member;
  }

  /** Applies `patch` to the task at `version` inside `tx`, with history; returns the new task. */
  async function applyPatch(
    tx: BoardTx,
    actor: Principal,
    task: Task,
    patch: TaskPatch,
    action: string,
    at: string,
  ): Promise<Task> {
    const ok = await tx.updateTask(task.ref, task.version, patch, at);
    if (!ok) {
      const current = await requireTask(tx, task.ref);
      throw versionConflict(task.ref, task.version, current.version);
    }
    const entries: HistoryEntry[] = Object.entries(patch).map(([field, to]) => ({
      ref: task.ref,
      memberId: actor.id,
      action,
      field,
      from: render(task[field as keyof Task]),
      to: render(to),
      at,
    }));
    await tx.insertHistory(entries);
    return requireTask(tx, task.ref);
  }

  /** Inserts a new task at version 1 with the next ref, and its `created` history entry. */
  async function insertNewTask(
    tx: BoardTx,
    actorId: string,
    input: NewTask,
    assignee: string | null,
    at: string,
  ): Promise<Task> {
    const task: Task = {
      ref: taskRef(await tx.nextTaskNumber()),
      title: input.title,
      description: input.description ?? '',
      status: input.status ?? 'todo',
      assignee,
      labels: [...new Set(input.labels ?? [])],
      due: input.due ?? null,
      version: 1,
      createdBy: actorId,
      createdAt: at,
      updatedAt: at,
    };
    await tx.insertTask(task);
    await tx.insertHistory([
      { ref: task.ref, memberId: actorId, action: 'created', field: null, from: null, to: task.title, at },
    ]);
    return task;
  }

  return {
    /** Finds tasks; `total` counts all matches, `tasks` holds one page. */
    search(query: TaskQuery) {
      return store.searchTasks(query);
    },

    /** Reads a task with comments and history. Fails with `TASK_NOT_FOUND`. */
    async get(ref: string): Promise<TaskDetail> {
      const detail = await store.getTaskDetail(ref);
      if (detail === undefined) throw taskNotFound(ref);
      return detail;
    },

    /** Creates a task at version 1 with the next ref. Fails with `MEMBER_NOT_FOUND` for an unknown assignee. */
    async create(ctx: WriteContext, input: NewTask): Promise<Task> {
      const actor = ctx.principal;
      const assignee = input.assignee ?? null;
      if (assignee !== null) {
        await requireActiveMember(store, assignee, 'assignee');
        if (grantOf(actor.role, 'tasks:assign') !== 'full' && assignee !== actor.id) {
          throw conditionUnmet({
            permission: 'tasks:assign',
            role: actor.role ?? 'none',
            grantedTo: fullGrantees('tasks:assign'),
            condition: `to assign tasks to yourself; you asked to assign the new task to ${assignee}`,
            next: `Leave assignee out or pass your own member id (${actor.id}).`,
          });
        }
      }
      return ctx.commit(() =>
        store.transaction(async (tx) => {
          if (assignee !== null) await requireActiveMember(tx, assignee, 'assignee');
          const task = await insertNewTask(tx, actor.id, input, assignee, now());
          return task;
        }, ctx.signal),
      );
    },

    /**
     * Changes title, description, labels or due date of the task at `expectedVersion`.
     * Fails with `TASK_NOT_FOUND`, `VERSION_CONFLICT`, `PERMISSION_CONDITION_UNMET`.
     */
    async update(
      ctx: WriteContext,
      ref: string,
      expectedVersion: number,
      edit: TaskEdit,
    ): Promise<TaskChange> {
      const before = await requireTask(store, ref);
      checkOwnOrAssigned(ctx.principal, 'tasks:update', before, 'update');
      if (before.version !== expectedVersion) throw versionConflict(ref, expectedVersion, before.version);
      const patch: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(edit)) {
        if (value !== undefined && !sameValue(before[key as keyof Task], value)) patch[key] = value;
      }
      if (Object.keys(patch).length === 0) return { task: before, changed: false };
      const task = await ctx.commit(() =>
        store.transaction(async (tx) => {
          const current = await requireTask(tx, ref);
          checkOwnOrAssigned(ctx.principal, 'tasks:update', current, 'update');
          if (current.version !== expectedVersion)
            throw versionConflict(ref, expectedVersion, current.version);
          return applyPatch(tx, ctx.principal, current, patch, 'updated', now());
        }, ctx.signal),
      );
      return { task, changed: true };
    },

    /**
     * Creates many tasks at once, all or none, each with a fresh ref (refs are never reused).
     * Fails with `MEMBER_NOT_FOUND` (naming `tasks[i].assignee`) before anything is written.
     */
    async importTasks(ctx: WriteContext, inputs: readonly NewTask[]): Promise<Task[]> {
      const check = async (reader: Pick<BoardStore | BoardTx, 'getMember'>) => {
        for (const [i, input] of inputs.entries()) {
          if (input.assignee) await requireActiveMember(reader, input.assignee, `tasks[${i}].assignee`);
        }
      };
      await check(store);
      return ctx.commit(() =>
        store.transaction(async (tx) => {
          await check(tx);
          const at = now();
          const tasks: Task[] = [];
          for (const input of inputs) {
            tasks.push(await insertNewTask(tx, ctx.principal.id, input, input.assignee ?? null, at));
          }
          return tasks;
        }, ctx.signal),
      );
    },

    /** Sets a task's status; a no-op when it already has it. Fails with `TASK_NOT_FOUND`, `PERMISSION_CONDITION_UNMET`. */
    async move(ctx: WriteContext, ref: string, status: TaskStatus): Promise<TaskChange> {
      const before = await requireTask(store, ref);
      checkOwnOrAssigned(ctx.principal, 'tasks:move', before, 'move');
      if (before.status === status) return { task: before, changed: false };
      const task = await ctx.commit(() =>
        store.transaction(async (tx) => {
          const current = await requireTask(tx, ref);
          checkOwnOrAssigned(ctx.principal, 'tasks:move', current, 'move');
          return applyPatch(tx, ctx.principal, current, { status }, 'moved', now());
        }, ctx.signal),
      );
      return { task, changed: true };
    },

    /**
     * Sets or clears a task's assignee; a no-op when unchanged.
     * Fails with `TASK_NOT_FOUND`, `MEMBER_NOT_FOUND`, `PERMISSION_CONDITION_UNMET`.
     */
    async assign(ctx: WriteContext, ref: string, assignee: string | null): Promise<TaskChange> {
      const before = await requireTask(store, ref);
      if (assignee !== null) await requireActiveMember(store, assignee, 'assignee');
      if (before.assignee === assignee) return { task: before, changed: false };
      checkSelfOnly(ctx.principal, before, assignee);
      const task = await ctx.commit(() =>
        store.transaction(async (tx) => {
          const current = await requireTask(tx, ref);
          if (assignee !== null) await requireActiveMember(tx, assignee, 'assignee');
          checkSelfOnly(ctx.principal, current, assignee);
          return applyPatch(tx, ctx.principal, current, { assignee }, 'assigned', now());
        }, ctx.signal),
      );
      return { task, changed: true };
    },

    /** Adds a comment to a task. Fails with `TASK_NOT_FOUND`. */
    async comment(ctx: WriteContext, ref: string, body: string): Promise<Comment> {
      await requireTask(store, ref);
      return ctx.commit(() =>
        store.transaction(async (tx) => {
          await requireTask(tx, ref);
          const at = now();
          const comment = await tx.insertComment({
            ref,
            authorId: ctx.principal.id,
            body,
            createdAt: at,
          });
          await tx.insertHistory([
            {
              ref,
              memberId: ctx.principal.id,
              action: 'commented',
              field: null,
              from: null,
              to: String(comment.id),
              at,
            },
          ]);
          return comment;
        }, ctx.signal),
      );
    },

    /** Deletes a task and its comments; its ref is never reused. Fails with `TASK_NOT_FOUND`. */
    async delete(ctx: WriteContext, ref: string): Promise<Task> {
      await requireTask(store, ref);
      return ctx.commit(() =>
        store.transaction(async (tx) => {
          const task = await requireTask(tx, ref);
          await tx.deleteTask(ref);
          await tx.insertHistory([
            {
              ref,
              memberId: ctx.principal.id,
              action: 'deleted',
              field: null,
              from: task.title,
              to: null,
              at: now(),
            },
          ]);
          return task;
        }, ctx.signal),
      );
    },
  };
}

/** The task service returned by {@link createTaskService}. */
export type TaskService = ReturnType<typeof createTaskService>;
