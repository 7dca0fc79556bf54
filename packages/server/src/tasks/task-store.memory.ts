/**
 * An in-memory {@link TaskStore}: one process, lost on restart. For tests and single-process servers.
 *
 * @packageDocumentation
 */
import { isTerminal, type StoredTask, type TaskError, type TaskStore } from './task-store.ts';

/** Creates an in-memory task store. */
export function createMemoryTaskStore(): TaskStore {
  const tasks = new Map<string, StoredTask>();
  const active = (task: StoredTask): boolean => !isTerminal(task.status);
  return {
    insert(task) {
      if (tasks.has(task.taskId)) return Promise.reject(new Error(`Task ${task.taskId} already exists.`));
      tasks.set(task.taskId, structuredClone(task));
      return Promise.resolve();
    },
    find(taskId) {
      const task = tasks.get(taskId);
      return Promise.resolve(task === undefined ? undefined : structuredClone(task));
    },
    patch(taskId, expectedVersion, patch, now) {
      const task = tasks.get(taskId);
      if (task === undefined || !active(task) || task.version !== expectedVersion)
        return Promise.resolve(undefined);
      const next: StoredTask = {
        ...task,
        ...structuredClone(patch),
        lastUpdatedAt: now,
        version: task.version + 1,
      };
      tasks.set(taskId, next);
      return Promise.resolve(structuredClone(next));
    },
    renewLeases(instanceId, leaseUntil) {
      const cancelled: string[] = [];
      for (const [id, task] of tasks) {
        if (task.instanceId !== instanceId || !active(task)) continue;
        tasks.set(id, { ...task, leaseUntil });
        if (task.cancelRequested) cancelled.push(id);
      }
      return Promise.resolve(cancelled);
    },
    failOrphans(now, error: TaskError, statusMessage) {
      let failed = 0;
      for (const [id, task] of tasks) {
        if (!active(task) || task.leaseUntil >= now) continue;
        tasks.set(id, {
          ...task,
          status: 'failed',
          error: structuredClone(error),
          statusMessage,
          inputRequests: {},
          lastUpdatedAt: now,
          version: task.version + 1,
        });
        failed += 1;
      }
      return Promise.resolve(failed);
    },
    purgeExpired(now) {
      let purged = 0;
      for (const [id, task] of tasks) {
        if (task.createdAt + task.ttlMs >= now) continue;
        tasks.delete(id);
        purged += 1;
      }
      return Promise.resolve(purged);
    },
  };
}
