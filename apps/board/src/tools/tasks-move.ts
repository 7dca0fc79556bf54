/** The `tasks_move` tool. @packageDocumentation */
import * as z from 'zod';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { refSchema, statusSchema } from './schemas.ts';
import { taskData, taskLine } from './render.ts';

/**
 * `tasks_move`: sets a task's status (idempotent). Needs `tasks:move` (contributors: own or assigned tasks).
 * Fails with `TASK_NOT_FOUND`, `PERMISSION_CONDITION_UNMET`.
 */
export function tasksMoveTool(services: BoardServices) {
  return defineTool({
    name: 'tasks_move',
    title: 'Move a task',
    description:
      'Moves one task to another status column: todo, doing, review or done. Pass its `ref` (like T-12) and the ' +
      'new `status`; moving a task to the status it already has changes nothing, so repeating the call is safe. ' +
      'To edit title, description, labels or due date use tasks_update; to change the assignee use tasks_assign.',
    input: z.strictObject({
      ref: refSchema,
      status: statusSchema.describe('The new status: todo, doing, review or done.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    permission: 'tasks:move',
    handler: async (args, ctx) => {
      const { task, changed } = await services.tasks.move(ctx, args.ref, args.status);
      const text = changed
        ? `Moved ${taskLine(task)}.`
        : `${task.ref} was already ${task.status}; nothing changed.`;
      return { text, structuredContent: { task: taskData(task), changed } };
    },
  });
}
