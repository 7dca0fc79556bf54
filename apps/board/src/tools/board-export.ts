/** The `board_export` tool. @packageDocumentation */
import * as z from 'zod';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { memberData, taskData } from './render.ts';
import { exportWholeBoard } from './board-export-all.ts';

/**
 * `board_export`: as a task (a client with the tasks extension), the whole board as JSON or CSV with progress;
 * otherwise the board's tasks (with comments) and members as JSON, a page at a time. Needs `board:export`.
 */
export function boardExportTool(services: BoardServices) {
  return defineTool({
    name: 'board_export',
    title: 'Export the board',
    description:
      'Exports the board. Called by a client that supports the tasks extension, it runs as a task and exports ' +
      'the whole board at once (members without secrets, every task with its comments and history) as JSON or, ' +
      'with `format` "csv", as four CSV tables; poll the task for progress, cancel it to stop. Otherwise it ' +
      'answers one page as JSON in structuredContent: the active members and `limit` tasks (1-200, default 100) ' +
      'from `offset`, oldest first, with their comments. Use it for backups or to copy tasks to another board ' +
      'with tasks_import. To look for particular tasks use tasks_search instead.',
    input: z.strictObject({
      format: z
        .enum(['json', 'csv'])
        .default('json')
        .describe('json (default) or csv; csv applies to the whole-board export of a task.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(200)
        .default(100)
        .describe('How many tasks per page, 1 to 200 (default 100).'),
      offset: z
        .number()
        .int()
        .min(0)
        .max(1_000_000)
        .default(0)
        .describe('How many tasks to skip (default 0).'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    permission: 'board:export',
    task: { support: 'optional', deadlineMs: 10 * 60 * 1000 },
    handler: async (args, ctx) => {
      if (ctx.task !== undefined) return exportWholeBoard(services, args.format, ctx);
      const { tasks, total } = await services.tasks.search({ limit: args.limit, offset: args.offset });
      const withComments = await Promise.all(
        tasks.map(async (task) => ({
          ...taskData(task),
          comments: (await services.store.listComments(task.ref)).map((c) => ({ ...c })),
        })),
      );
      const members = (await services.members.list(true)).map(memberData);
      const nextOffset = args.offset + tasks.length < total ? args.offset + tasks.length : null;
      const more = nextOffset === null ? '' : ` More: call board_export again with offset ${nextOffset}.`;
      return {
        text: `Exported ${tasks.length} of ${total} tasks from offset ${args.offset} and ${members.length} members as JSON in structuredContent.${more}`,
        structuredContent: {
          exportedAt: new Date().toISOString(),
          total,
          offset: args.offset,
          nextOffset,
          members,
          tasks: withComments,
        },
      };
    },
  });
}
