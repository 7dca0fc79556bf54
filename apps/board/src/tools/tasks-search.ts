/** The `tasks_search` tool. @packageDocumentation */
import * as z from 'zod';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { labelSchema, statusSchema } from './schemas.ts';
import { taskData, taskLine } from './render.ts';

/** `tasks_search`: finds tasks by text, status, assignee and label, one page at a time. Needs `board:read`. */
export function tasksSearchTool(services: BoardServices) {
  return defineTool({
    name: 'tasks_search',
    title: 'Search tasks',
    description:
      'Finds tasks on the board. All filters are optional and combine: `query` matches words in the title or ' +
      'description, `status` is todo/doing/review/done, `assignee` is a member id (or "none" for unassigned ' +
      'tasks), `label` is one label. Results come oldest first, `limit` (1-50, default 20) per page; pass ' +
      '`offset` from the previous answer for the next page. Answers each task with its ref, status, title, ' +
      'assignee and version. To read one task in full with comments and history use tasks_get.',
    input: z.strictObject({
      query: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe('Text to look for in titles and descriptions, 1-200 characters.'),
      status: statusSchema.optional(),
      assignee: z
        .string()
        .regex(/^(m_[a-z0-9]{4,40}|none)$/, {
          message: 'a member id like m_3kq9x7d2bz4w (see members_list), or "none" for unassigned tasks',
        })
        .optional()
        .describe('Only tasks assigned to this member id, or "none" for unassigned tasks.'),
      label: labelSchema.optional().describe('Only tasks carrying this label.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(50)
        .default(20)
        .describe('How many tasks per page, 1 to 50 (default 20).'),
      offset: z
        .number()
        .int()
        .min(0)
        .max(100_000)
        .default(0)
        .describe('How many matching tasks to skip (default 0).'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    permission: 'board:read',
    handler: async (args) => {
      const { tasks, total } = await services.tasks.search({
        ...(args.query === undefined ? {} : { text: args.query }),
        ...(args.status === undefined ? {} : { status: args.status }),
        ...(args.assignee === undefined ? {} : { assignee: args.assignee === 'none' ? null : args.assignee }),
        ...(args.label === undefined ? {} : { label: args.label }),
        limit: args.limit,
        offset: args.offset,
      });
      const nextOffset = args.offset + tasks.length < total ? args.offset + tasks.length : null;
      const head =
        total === 0
          ? 'No task matches. Try fewer filters or another query; tasks_create adds a task.'
          : `${total} task${total === 1 ? '' : 's'} match; showing ${tasks.length} from offset ${args.offset}.`;
      const more =
        nextOffset === null ? '' : `\nMore results: call tasks_search again with offset ${nextOffset}.`;
      return {
        text: [head, ...tasks.map(taskLine)].join('\n') + more,
        structuredContent: {
          tasks: tasks.map(taskData),
          total,
          offset: args.offset,
          limit: args.limit,
          nextOffset,
        },
      };
    },
  });
}
