/** The `tasks_create` tool. @packageDocumentation */
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { newTaskSchema, toNewTask } from './schemas.ts';
import { taskData, taskLine } from './render.ts';

/**
 * `tasks_create`: adds a task (ref `T-<n>`, version 1). Needs `tasks:create`; takes an idempotency key.
 * Fails with `MEMBER_NOT_FOUND` for an unknown assignee, `PERMISSION_CONDITION_UNMET` when a contributor assigns another.
 */
export function tasksCreateTool(services: BoardServices) {
  return defineTool({
    name: 'tasks_create',
    title: 'Create a task',
    description:
      'Adds a new task to the board and answers its ref (like T-12) and version 1. Only `title` is required; ' +
      '`description`, `status` (default todo), `assignee` (a member id from members_list), `labels` (at most 10) ' +
      'and `due` (YYYY-MM-DD) are optional. Calling it twice creates two tasks: pass the same `idempotencyKey` ' +
      'when you retry. To change an existing task use tasks_update, tasks_move or tasks_assign instead.',
    input: newTaskSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    permission: 'tasks:create',
    idempotent: true,
    handler: async (args, ctx) => {
      const task = await services.tasks.create(ctx, toNewTask(args));
      return { text: `Created ${taskLine(task)}.`, structuredContent: { task: taskData(task) } };
    },
  });
}
