/**
 * The durable state of tasks-extension tasks and the narrow store interface below the task runtime.
 *
 * @packageDocumentation
 */

/** The statuses of a task; the last three are terminal and final. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The terminal statuses. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Whether `status` is terminal (completed, failed or cancelled). */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** A JSON-RPC error as a failed task carries it. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** One task as stored. Times are epoch milliseconds; JSON fields are plain JSON values. */
export interface StoredTask {
  /** Unguessable id (128 random bits). */
  readonly taskId: string;
  /** The caller (principal id) who created the task; nobody else can see it. */
  readonly ownerId: string;
  readonly tool: string;
  readonly status: TaskStatus;
  readonly statusMessage: string | null;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** How long after `createdAt` the task is kept. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The tool result of a completed task (including an `isError` result). */
  readonly result: Record<string, unknown> | null;
  /** The JSON-RPC error of a failed task. */
  readonly error: TaskError | null;
  /** Outstanding input requests by key (while `input_required`). */
  readonly inputRequests: Record<string, unknown>;
  /** Answers received through `tasks/update`, by key, not yet taken by the running work. */
  readonly inputResponses: Record<string, unknown>;
  /** Whether `tasks/cancel` was received; the instance running the task stops it. */
  readonly cancelRequested: boolean;
  /** The server instance running the task. */
  readonly instanceId: string;
  /** Until when that instance vouches for the task; past it, an active task is orphaned. */
  readonly leaseUntil: number;
  /** Increases with every write; {@link TaskStore.patch} compares it. */
  readonly version: number;
}

/** The fields a {@link TaskStore.patch} may change. */
export type TaskPatch = Partial<
  Pick<
    StoredTask,
    | 'status'
    | 'statusMessage'
    | 'result'
    | 'error'
    | 'inputRequests'
    | 'inputResponses'
    | 'cancelRequested'
    | 'leaseUntil'
    | 'pollIntervalMs'
  >
>;

/**
 * Durable task records shared by every server instance of one deployment. Every write is a compare-and-set on
 * `version` and never touches a terminal task, so a settled task stays as it settled.
 */
export interface TaskStore {
  /** Stores a new task; resolves once a `find` on any instance would see it. */
  insert(task: StoredTask): Promise<void>;
  /** The task with this id, or undefined. Expired tasks may still be returned; the runtime checks. */
  find(taskId: string): Promise<StoredTask | undefined>;
  /**
   * Applies `patch` (and `lastUpdatedAt = now`, `version + 1`) when the task exists, is not terminal and still
   * has `expectedVersion`. Returns the updated task, or undefined when nothing was written.
   */
  patch(
    taskId: string,
    expectedVersion: number,
    patch: TaskPatch,
    now: number,
  ): Promise<StoredTask | undefined>;
  /** Extends the lease of every active task of `instanceId`; returns the ids of those with a cancel request. */
  renewLeases(instanceId: string, leaseUntil: number): Promise<readonly string[]>;
  /**
   * Fails every active task whose lease ended before `now` (its instance died) with `error`; returns how many.
   */
  failOrphans(now: number, error: TaskError, statusMessage: string): Promise<number>;
  /** Deletes tasks whose `createdAt + ttlMs` is before `now`; returns how many. */
  purgeExpired(now: number): Promise<number>;
}
