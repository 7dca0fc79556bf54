/**
 * Tasks, their comments and their history.
 *
 * @packageDocumentation
 */

/** The four task statuses, in board order. */
export const TASK_STATUSES = ['todo', 'doing', 'review', 'done'] as const;

/** One of {@link TASK_STATUSES}. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A task ref: `T-` followed by a positive number without leading zeros. */
export const TASK_REF_PATTERN = /^T-[1-9][0-9]{0,9}$/;

/** A due date: `YYYY-MM-DD`. */
export const DUE_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A task on the board. `version` starts at 1 and grows by one with every change. */
export interface Task {
  readonly ref: string;
  readonly title: string;
  readonly description: string;
  readonly status: TaskStatus;
  /** Member id of the assignee, or null. */
  readonly assignee: string | null;
  readonly labels: readonly string[];
  /** `YYYY-MM-DD`, or null. */
  readonly due: string | null;
  readonly version: number;
  /** Member id of the creator. */
  readonly createdBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A comment on a task. */
export interface Comment {
  readonly id: number;
  readonly ref: string;
  readonly authorId: string;
  readonly body: string;
  readonly createdAt: string;
}

/** One change to a task: who changed which field when, with old and new values rendered as text. */
export interface HistoryEntry {
  readonly ref: string;
  readonly memberId: string;
  /** What happened: `created`, `updated`, `moved`, `assigned`, `commented`, `deleted`. */
  readonly action: string;
  readonly field: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly at: string;
}

/** Builds the ref of the task with sequence number `n`. */
export function taskRef(n: number): string {
  return `T-${n}`;
}

/** The earliest due date accepted. */
export const DUE_DATE_MIN = '1900-01-01';
/** The latest due date accepted. */
export const DUE_DATE_MAX = '2999-12-31';

/**
 * Whether `value` (`YYYY-MM-DD`) lies from {@link DUE_DATE_MIN} to {@link DUE_DATE_MAX}: a task board has no
 * use for year 0000 or 9999, and PostgreSQL's dates cannot hold year 0 at all.
 */
export function isDueDateInRange(value: string): boolean {
  return value >= DUE_DATE_MIN && value <= DUE_DATE_MAX;
}

/** True when `value` is a real calendar date in `YYYY-MM-DD` form. */
export function isCalendarDate(value: string): boolean {
  if (!DUE_DATE_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
