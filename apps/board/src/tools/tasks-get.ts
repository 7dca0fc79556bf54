/** The `tasks_get` tool. @packageDocumentation */
import * as z from 'zod';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { refSchema } from './schemas.ts';
import { taskData, taskLine } from './render.ts';

/** `tasks_get`: one task in full, with comments and history. Needs `board:read`. Fails with `TASK_NOT_FOUND`. */
export function tasksGetTool(services: BoardServices) {
  return defineTool({
    name: 'tasks_get',
    title: 'Get a task',
    description:
      'Reads one task by its ref (like T-12): title, description, status, assignee, labels, due date, version, ' +
      'comments and change history. Read it before tasks_update, which needs the current version. ' +
      'If you do not know the ref, find the task with tasks_search first.',
    input: z.strictObject({ ref: refSchema }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    permission: 'board:read',
    handler: async ({ ref }) => {
      const { task, comments, history } = await services.tasks.get(ref);
      const lines = [taskLine(task)];
      if (task.description !== '') lines.push(`Description: ${task.description}`);
      lines.push(
        `${comments.length} comment${comments.length === 1 ? '' : 's'}, ${history.length} history entries.`,
      );
      for (const c of comments) lines.push(`- ${c.authorId} at ${c.createdAt}: ${c.body}`);
      return {
        text: lines.join('\n'),
        structuredContent: {
          task: taskData(task),
          comments: comments.map((c) => ({ ...c })),
          history: history.map((h) => ({ ...h })),
        },
      };
    },
  });
}
