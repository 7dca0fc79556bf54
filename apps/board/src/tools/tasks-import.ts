/** The `tasks_import` tool. @packageDocumentation */
import * as z from 'zod';
import { businessRule, failureFromZodError, invalidArgument } from '@recourse/core';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { newTaskSchema, toNewTask } from './schemas.ts';
import { taskData } from './render.ts';
import { fetchImportRows, type ImportSourceOptions } from './import-source.ts';
import { importRows } from './import-rows.ts';

/** Most rows one import takes. */
export const MAX_IMPORT_ROWS = 5000;
/** Most rows an import takes when it runs inline (no task). */
export const MAX_INLINE_IMPORT_ROWS = 100;

const inlineSchema = z.strictObject({ tasks: z.array(newTaskSchema).min(1).max(MAX_INLINE_IMPORT_ROWS) });

/**
 * `tasks_import`: as a task (a client with the tasks extension), up to 5000 rows given inline or read from an
 * http(s) URL of a CSV or JSON file, checked row by row; otherwise up to 100 inline rows, all or none. Needs
 * `board:import`; takes an idempotency key. Failures: `MEMBER_NOT_FOUND` naming `tasks[i].assignee` (inline),
 * `IMPORT_ROWS_REFUSED`, `UPSTREAM_TIMEOUT`, `UPSTREAM_UNAVAILABLE`, `UPSTREAM_REFUSED`, `IMPORT_SOURCE_TOO_LARGE`,
 * `TASK_REQUIRED`.
 */
export function tasksImportTool(services: BoardServices, source: ImportSourceOptions = {}) {
  return defineTool({
    name: 'tasks_import',
    title: 'Import tasks',
    description:
      'Creates many tasks at once from `tasks`, a list of objects shaped like the arguments of tasks_create ' +
      '(`title` required; description, status, assignee, labels, due optional), or from `source`, the ' +
      'http(s) URL of a JSON file (such a list, or { "tasks": [...] }) or a CSV file with a header row (title, ' +
      'description, status, assignee, labels separated by ";", due). Called by a client that supports the tasks ' +
      'extension it runs as a task: up to 5000 rows, each checked on its own, the valid ones created and the ' +
      'others reported with their row number and reason (`allOrNone: true` refuses the whole import instead). ' +
      'Otherwise it takes up to 100 rows in `tasks`, all or none, and no `source`. Each task gets a new ref. ' +
      'Calling it twice imports twice, so pass the same `idempotencyKey` when you retry. For one task use tasks_create.',
    input: z.strictObject({
      tasks: z
        .array(z.record(z.string(), z.unknown()))
        .min(1)
        .max(MAX_IMPORT_ROWS)
        .optional()
        .describe(
          'The tasks to create, each like the arguments of tasks_create (1 to 5000; 100 without a task).',
        ),
      source: z
        .url({ protocol: /^https?$/ })
        .optional()
        .describe(
          'http(s) URL of a JSON or CSV file of tasks to import instead of `tasks` (only as a task).',
        ),
      allOrNone: z
        .boolean()
        .optional()
        .describe('Refuse the whole import when any row is refused (default: true inline, false as a task).'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    permission: 'board:import',
    idempotent: true,
    cost: 5,
    task: { support: 'optional', deadlineMs: 10 * 60 * 1000 },
    handler: async (args, ctx) => {
      if ((args.tasks === undefined) === (args.source === undefined)) {
        throw invalidArgument({
          field: args.tasks === undefined ? 'tasks' : 'source',
          expected: 'exactly one of `tasks` (a list of rows) and `source` (an http(s) URL)',
          message:
            args.tasks === undefined
              ? 'Neither `tasks` nor `source` was given.'
              : 'Both `tasks` and `source` were given.',
        });
      }
      if (ctx.task !== undefined) {
        const rows = args.tasks ?? (await fetchImportRows(args.source ?? '', ctx.signal, source));
        return importRows(services, ctx, rows, args.allOrNone ?? false);
      }
      if (args.source !== undefined) {
        throw businessRule({
          code: 'TASK_REQUIRED',
          message:
            'Importing from a URL runs as a task, and this client did not declare the tasks extension.',
          next: 'Call tasks_import from a client that supports tasks, or pass up to 100 rows in `tasks`. Nothing was imported.',
        });
      }
      if (args.allOrNone === false) return importRows(services, ctx, args.tasks ?? [], false);
      const inline = inlineSchema.safeParse({ tasks: args.tasks });
      if (!inline.success)
        throw failureFromZodError(
          inline.error,
          { tasks: args.tasks },
          { tool: 'tasks_import', schema: inlineSchema },
        );
      const created = await services.tasks.importTasks(ctx, inline.data.tasks.map(toNewTask));
      const first = created[0]?.ref ?? '';
      const last = created[created.length - 1]?.ref ?? '';
      return {
        text: `Imported ${created.length} task${created.length === 1 ? '' : 's'} as ${first === last ? first : `${first} to ${last}`}.`,
        structuredContent: { tasks: created.map(taskData) },
      };
    },
  });
}
