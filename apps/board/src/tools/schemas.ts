/**
 * Argument schemas shared by the board tools: strict ranges and formats, each with a description for the model.
 *
 * @packageDocumentation
 */
import * as z from 'zod';
import {
  DUE_DATE_MAX,
  DUE_DATE_MIN,
  DUE_DATE_PATTERN,
  TASK_REF_PATTERN,
  TASK_STATUSES,
  isCalendarDate,
  isDueDateInRange,
} from '../domain/task.ts';
import type { NewTask } from '../services/task-service.ts';

/** A task ref such as `T-12`; the error message says so. */
export const refSchema = z
  .string({ error: 'a task ref like T-12' })
  .regex(TASK_REF_PATTERN, { message: 'a task ref like T-12' })
  .describe('The task ref, like T-12 (as shown by tasks_search).');

/** A task title of 1 to 200 characters. */
export const titleSchema = z.string().trim().min(1).max(200).describe('Task title, 1 to 200 characters.');

/** A task description of up to 5 000 characters. */
export const descriptionSchema = z
  .string()
  .max(5000)
  .describe('Longer description, up to 5000 characters (plain text or Markdown).');

/** One of the task statuses. */
export const statusSchema = z.enum(TASK_STATUSES).describe('Task status: todo, doing, review or done.');

/** A single label: 1 to 32 characters of letters, digits, `-`, `_`, `.`, `:` or `/`. */
export const labelSchema = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, {
    message: 'a label of letters, digits and . _ : / - like bug or area/api',
  })
  .describe('A label, 1 to 32 characters, like bug or area/api.');

/** Up to 10 labels. */
export const labelsSchema = z
  .array(labelSchema)
  .max(10)
  .describe('Labels of the task, at most 10 (replaces all labels).');

/** A real calendar date `YYYY-MM-DD` from {@link DUE_DATE_MIN} to {@link DUE_DATE_MAX}. */
export const dueSchema = z
  .string({ error: `a date like 2026-07-28, from ${DUE_DATE_MIN} to ${DUE_DATE_MAX}` })
  .regex(DUE_DATE_PATTERN, { message: `a date like 2026-07-28, from ${DUE_DATE_MIN} to ${DUE_DATE_MAX}` })
  .refine(isCalendarDate, { message: 'a real calendar date like 2026-07-28' })
  .refine(isDueDateInRange, { message: `a date from ${DUE_DATE_MIN} to ${DUE_DATE_MAX}, like 2026-07-28` })
  .describe(`Due date as YYYY-MM-DD, like 2026-07-28, from ${DUE_DATE_MIN} to ${DUE_DATE_MAX}.`);

/** A member id such as `m_3kq9x7d2bz4w`. */
export const memberIdSchema = z
  .string({ error: 'a member id like m_3kq9x7d2bz4w (see members_list)' })
  .regex(/^m_[a-z0-9]{4,40}$/, { message: 'a member id like m_3kq9x7d2bz4w (see members_list)' })
  .describe('A member id like m_3kq9x7d2bz4w, as listed by members_list.');

/** A task's version for optimistic concurrency (from tasks_get or tasks_search). */
export const versionSchema = z
  .number()
  .int()
  .min(1)
  .describe(
    "The task's version as you last read it (tasks_get shows it); the change is refused if it moved on.",
  );

/** The arguments that describe a new task: those of tasks_create, and each item of tasks_import. */
export const newTaskSchema = z.strictObject({
  title: titleSchema,
  description: descriptionSchema.optional(),
  status: statusSchema.optional().describe('Initial status: todo (default), doing, review or done.'),
  assignee: memberIdSchema.optional().describe('Member id to assign the task to, as listed by members_list.'),
  labels: labelsSchema.optional(),
  due: dueSchema.optional(),
});

/** Parsed {@link newTaskSchema} arguments as the task service's `NewTask`, leaving out what was not sent. */
export function toNewTask(args: z.infer<typeof newTaskSchema>): NewTask {
  const { title, description, status, assignee, labels, due } = args;
  return {
    title,
    ...(description === undefined ? {} : { description }),
    ...(status === undefined ? {} : { status }),
    ...(assignee === undefined ? {} : { assignee }),
    ...(labels === undefined ? {} : { labels }),
    ...(due === undefined ? {} : { due }),
  };
}
