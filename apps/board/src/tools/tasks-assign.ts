/** The `tasks_assign` tool. @packageDocumentation */
import * as z from 'zod';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { memberIdSchema, refSchema } from './schemas.ts';
import { taskData, taskLine } from './render.ts';

/**
 * `tasks_assign`: sets or clears a task's assignee (idempotent). Needs `tasks:assign` (contributors: self only).
 * Fails with `TASK_NOT_FOUND`, `MEMBER_NOT_FOUND`, `PERMISSION_CONDITION_UNMET`.
 */
export function tasksAssignTool(services: BoardServices) {
  return defineTool({
    name: 'tasks_assign',
    title: 'Assign a task',
    description:
      'Assigns one task to a member, or unassigns it. Pass its `ref` (like T-12) and `assignee`: a member id from ' +
      'members_list (your own id is in whoami), or null to leave it unassigned. Assigning the current assignee ' +
      'again changes nothing. Contributors may only assign themselves. To change status use tasks_move; to edit ' +
      'the text use tasks_update.',
    input: z.strictObject({
      ref: refSchema,
      assignee: memberIdSchema
        .nullable()
        .describe('Member id of the new assignee (see members_list), or null to unassign.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    permission: 'tasks:assign',
    handler: async (args, ctx) => {
      const { task, changed } = await services.tasks.assign(ctx, args.ref, args.assignee);
      const text = changed
        ? `${task.assignee === null ? 'Unassigned' : 'Assigned'} ${taskLine(task)}.`
        : `${task.ref} already had that assignee; nothing changed.`;
      return { text, structuredContent: { task: taskData(task), changed } };
    },
  });
}
