/** The `tasks_delete` tool. @packageDocumentation */
import * as z from 'zod';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { refSchema } from './schemas.ts';
import { taskData } from './render.ts';

/** `tasks_delete`: deletes a task and its comments for good. Needs `tasks:delete`. Fails with `TASK_NOT_FOUND`. */
export function tasksDeleteTool(services: BoardServices) {
  return defineTool({
    name: 'tasks_delete',
    title: 'Delete a task',
    description:
      'Deletes one task and its comments for good; its ref (like T-12) is never reused. Pass the `ref`. ' +
      'This cannot be undone: to close finished work use tasks_move with status done instead, and to change the ' +
      'task use tasks_update.',
    input: z.strictObject({ ref: refSchema }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    permission: 'tasks:delete',
    handler: async (args, ctx) => {
      const task = await services.tasks.delete(ctx, args.ref);
      return {
        text: `Deleted ${task.ref} "${task.title}". Its ref will not be reused.`,
        structuredContent: { task: taskData(task) },
      };
    },
  });
}
