/**
 * Stored tasks in the wire shapes of the tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28), typed by
 * the official `@modelcontextprotocol/ext-tasks` schemas.
 *
 * @packageDocumentation
 */
import type { CreateTaskResultV2, DetailedTaskV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { StoredTask } from './task-store.ts';

function base(task: StoredTask): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === null ? {} : { statusMessage: task.statusMessage }),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
}

/** The `CreateTaskResult` a `tools/call` answers with: the flat task fields and `resultType: "task"`. */
export function createTaskResult(task: StoredTask): CreateTaskResultV2 {
  return { resultType: 'task', ...base(task) } as CreateTaskResultV2;
}

/** The task for `tasks/get`: with `inputRequests`, `result` or `error` as its status calls for. */
export function detailedTask(task: StoredTask): DetailedTaskV2 {
  const extra =
    task.status === 'input_required'
      ? { inputRequests: task.inputRequests }
      : task.status === 'completed'
        ? // The tool result as a complete 2026-07-28 CallToolResult: requesters validate `resultType`.
          { result: { ...(task.result ?? { content: [] }), resultType: 'complete' } }
        : task.status === 'failed'
          ? { error: task.error ?? { code: -32603, message: 'The task failed.' } }
          : {};
  return { ...base(task), ...extra } as DetailedTaskV2;
}
