/** The `tasks_update` tool. @packageDocumentation */
import * as z from 'zod';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import {
  descriptionSchema,
  dueSchema,
  labelsSchema,
  refSchema,
  titleSchema,
  versionSchema,
} from './schemas.ts';
import { taskData, taskLine } from './render.ts';

/**
 * `tasks_update`: edits title, description, labels or due date at an expected version. Needs `tasks:update`
 * (contributors: own or assigned tasks). Fails with `TASK_NOT_FOUND`, `VERSION_CONFLICT`, `PERMISSION_CONDITION_UNMET`.
 */
export function tasksUpdateTool(services: BoardServices) {
  return defineTool({
    name: 'tasks_update',
    title: 'Update a task',
    description:
      'Edits the title, description, labels or due date of one task. Pass its `ref`, the `expectedVersion` you ' +
      'last read with tasks_get, and only the fields to change; `labels` replaces all labels, `due: null` clears ' +
      'the due date. If someone changed the task since you read it, the update is refused with the current ' +
      'version: re-read it with tasks_get and try again. To change status use tasks_move; to change the assignee ' +
      'use tasks_assign; to add a remark use tasks_comment.',
    input: z.strictObject({
      ref: refSchema,
      expectedVersion: versionSchema,
      title: titleSchema.optional(),
      description: descriptionSchema.optional(),
      labels: labelsSchema.optional(),
      due: dueSchema.nullable().optional().describe('New due date as YYYY-MM-DD, or null to clear it.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    permission: 'tasks:update',
    handler: async (args, ctx) => {
      const { task, changed } = await services.tasks.update(ctx, args.ref, args.expectedVersion, {
        ...(args.title === undefined ? {} : { title: args.title }),
        ...(args.description === undefined ? {} : { description: args.description }),
        ...(args.labels === undefined ? {} : { labels: [...new Set(args.labels)] }),
        ...(args.due === undefined ? {} : { due: args.due }),
      });
      const text = changed
        ? `Updated ${taskLine(task)}.`
        : `Nothing to change: ${taskLine(task)} already has these values.`;
      return { text, structuredContent: { task: taskData(task), changed } };
    },
  });
}
