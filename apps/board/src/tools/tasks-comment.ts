/** The `tasks_comment` tool. @packageDocumentation */
import * as z from 'zod';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { refSchema } from './schemas.ts';

/** `tasks_comment`: adds a comment to a task. Needs `tasks:comment`; takes an idempotency key. Fails with `TASK_NOT_FOUND`. */
export function tasksCommentTool(services: BoardServices) {
  return defineTool({
    name: 'tasks_comment',
    title: 'Comment on a task',
    description:
      'Adds a comment to one task: pass its `ref` (like T-12) and the comment `body` (1-5000 characters). ' +
      'Each call adds another comment, so pass the same `idempotencyKey` when you retry. Comments do not change ' +
      'the task or its version; to change the task itself use tasks_update, tasks_move or tasks_assign.',
    input: z.strictObject({
      ref: refSchema,
      body: z.string().trim().min(1).max(5000).describe('The comment text, 1 to 5000 characters.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    permission: 'tasks:comment',
    idempotent: true,
    handler: async (args, ctx) => {
      const comment = await services.tasks.comment(ctx, args.ref, args.body);
      return {
        text: `Comment ${comment.id} added to ${comment.ref}.`,
        structuredContent: { comment: { ...comment } },
      };
    },
  });
}
