/** The `tasks_import` tool. @packageDocumentation */
import * as z from 'zod';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { newTaskSchema, toNewTask } from './schemas.ts';
import { taskData } from './render.ts';

/**
 * `tasks_import`: creates up to 100 tasks at once, all or none. Needs `board:import`; takes an idempotency key.
 * Fails with `MEMBER_NOT_FOUND` naming `tasks[i].assignee`.
 */
export function tasksImportTool(services: BoardServices) {
  return defineTool({
    name: 'tasks_import',
    title: 'Import tasks',
    description:
      'Creates many tasks at once (1 to 100), all or none: `tasks` is a list of objects shaped like the ' +
      'arguments of tasks_create (`title` required; description, status, assignee, labels, due optional). Each ' +
      'task gets a new ref; refs from another board are not kept. Calling it twice imports twice, so pass the ' +
      'same `idempotencyKey` when you retry. For a single task use tasks_create.',
    input: z.strictObject({
      tasks: z
        .array(newTaskSchema)
        .min(1)
        .max(100)
        .describe('The tasks to create, 1 to 100, each like the arguments of tasks_create.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    permission: 'board:import',
    idempotent: true,
    cost: 5,
    handler: async (args, ctx) => {
      const created = await services.tasks.importTasks(ctx, args.tasks.map(toNewTask));
      const first = created[0]?.ref ?? '';
      const last = created[created.length - 1]?.ref ?? '';
      return {
        text: `Imported ${created.length} task${created.length === 1 ? '' : 's'} as ${first === last ? first : `${first} to ${last}`}.`,
        structuredContent: { tasks: created.map(taskData) },
      };
    },
  });
}
