/**
 * Polls a task of the 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`) until it ends or needs
 * input: `pollIntervalMs` is a floor, waits back off with jitter, failed polls are survived up to a cap, a
 * maximum lifetime (and the task's own TTL) bounds the whole wait, and a task it abandons is cancelled.
 * Transport-agnostic: the caller supplies `get` (one `tasks/get`) and `cancel` (one `tasks/cancel`); a
 * persisted task id resumes polling by passing it again.
 *
 * @packageDocumentation
 */
import { sleep } from './abortable-sleep.ts';

/** The statuses of a task; `completed`, `failed` and `cancelled` are final. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** What one `tasks/get` answered. */
export interface TaskSnapshot {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO-8601 creation time. */
  readonly createdAt?: string;
  readonly ttlMs?: number | null;
  readonly pollIntervalMs?: number;
  /** For `completed`: the tool result (which may itself be `isError`). */
  readonly result?: unknown;
  /** For `failed`: the JSON-RPC error. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** For `input_required`: the outstanding requests. */
  readonly inputRequests?: unknown;
}

/** Options of {@link pollTask}. */
export interface TaskPollOptions {
  /** Runs one `tasks/get`. A rejection counts as a failed poll, except a JSON-RPC -32602 (no such task). */
  get(taskId: string, signal: AbortSignal): Promise<TaskSnapshot>;
  /** Runs one `tasks/cancel` for a task the poller abandons (best effort; its failure is ignored). */
  cancel?(taskId: string): Promise<unknown>;
  /** Floor of the wait when the server names none (default 250 ms). */
  readonly minIntervalMs?: number;
  /** Ceiling of the backed-off wait (default 10 000 ms; never below the server's `pollIntervalMs`). */
  readonly maxIntervalMs?: number;
  /** Consecutive failed polls survived before giving up (default 5). */
  readonly maxFailedPolls?: number;
  /** How long to poll at most, in ms (default 10 minutes). */
  readonly maxLifetimeMs?: number;
  /** Stops polling (and cancels the task). */
  readonly signal?: AbortSignal;
  /** Sees every snapshot. */
  readonly onUpdate?: (snapshot: TaskSnapshot) => void;
  /** Source of jitter in [0, 1) (default `Math.random`). */
  readonly random?: () => number;
}

/** Why polling stopped without an answer. */
export type TaskPollFailure = 'not_found' | 'polls_failed' | 'lifetime' | 'expired' | 'cancelled';

/** Stable codes of {@link TaskPollError}. */
export const TASK_POLL_ERROR_CODE = 'TASK_POLL_FAILED';

/** Polling ended without a final or `input_required` snapshot. Code `TASK_POLL_FAILED`; `reason` says why. */
export class TaskPollError extends Error {
  override readonly name = 'TaskPollError';
  readonly code = TASK_POLL_ERROR_CODE;
  readonly taskId: string;
  readonly reason: TaskPollFailure;
  /** Polls made. */
  readonly polls: number;
  /** Whether the poller sent `tasks/cancel` for the task it abandoned. */
  readonly cancelSent: boolean;

  constructor(init: {
    taskId: string;
    reason: TaskPollFailure;
    polls: number;
    cancelSent: boolean;
    cause?: unknown;
  }) {
    super(
      describe(init.taskId, init.reason, init.polls, init.cancelSent),
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.taskId = init.taskId;
    this.reason = init.reason;
    this.polls = init.polls;
    this.cancelSent = init.cancelSent;
  }
}

function describe(taskId: string, reason: TaskPollFailure, polls: number, cancelSent: boolean): string {
  const cancel = cancelSent
    ? ' The task was cancelled on the server (cooperatively: it may still finish).'
    : '';
  switch (reason) {
    case 'not_found':
      return `Task ${taskId} is unknown or expired on the server (-32602 after ${polls} polls). Polling again will not help; start the work again if it is still needed.`;
    case 'polls_failed':
      return `Polling task ${taskId} failed ${polls} times in a row, so the poller gave up.${cancel} Resume later with the same task id if the server recovers.`;
    case 'lifetime':
      return `Task ${taskId} did not finish within the poller's maximum lifetime.${cancel} Poll with a longer lifetime if the work is slow.`;
    case 'expired':
      return `Task ${taskId} outlived its TTL without finishing.${cancel} Start the work again if it is still needed.`;
    case 'cancelled':
      return `Polling task ${taskId} was cancelled by the caller.${cancel}`;
  }
}

function isFinalOrWaiting(status: TaskStatus): boolean {
  return status !== 'working';
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === -32602;
}

/**
 * Polls task `taskId` until it is `completed`, `failed`, `cancelled` or `input_required`, and resolves with that
 * snapshot. Rejects with a {@link TaskPollError} (`not_found`, `polls_failed`, `lifetime`, `expired`,
 * `cancelled`); in every case but `not_found` the abandoned task is cancelled first when `cancel` is given.
 */
export async function pollTask(taskId: string, options: TaskPollOptions): Promise<TaskSnapshot> {
  const started = Date.now();
  const floorDefault = options.minIntervalMs ?? 250;
  const ceiling = options.maxIntervalMs ?? 10_000;
  const maxFailed = options.maxFailedPolls ?? 5;
  const lifetime = options.maxLifetimeMs ?? 10 * 60_000;
  const random = options.random ?? Math.random;
  let polls = 0;
  let failed = 0;
  let backoff = 0;
  let last: TaskSnapshot | undefined;
  let lastError: unknown;

  const abandon = async (reason: TaskPollFailure): Promise<never> => {
    let cancelSent = false;
    if (reason !== 'not_found' && options.cancel) {
      cancelSent = true;
      await options.cancel(taskId).catch(() => undefined);
    }
    throw new TaskPollError({ taskId, reason, polls, cancelSent, cause: lastError });
  };

  for (;;) {
    if (options.signal?.aborted) return abandon('cancelled');
    if (Date.now() - started >= lifetime) return abandon('lifetime');
    polls++;
    try {
      const snapshot = await options.get(taskId, options.signal ?? new AbortController().signal);
      failed = 0;
      if (last?.status !== snapshot.status) backoff = 0;
      last = snapshot;
      options.onUpdate?.(snapshot);
      if (isFinalOrWaiting(snapshot.status)) return snapshot;
      const created = snapshot.createdAt === undefined ? NaN : Date.parse(snapshot.createdAt);
      if (
        typeof snapshot.ttlMs === 'number' &&
        !Number.isNaN(created) &&
        Date.now() > created + snapshot.ttlMs
      ) {
        return abandon('expired');
      }
    } catch (error) {
      if (options.signal?.aborted) return abandon('cancelled');
      lastError = error;
      if (isNotFound(error)) return abandon('not_found');
      if (++failed >= maxFailed) return abandon('polls_failed');
    }
    const floor = Math.max(last?.pollIntervalMs ?? floorDefault, 1);
    const grown = Math.min(Math.max(ceiling, floor), floor * 1.5 ** backoff);
    backoff++;
    const wait = Math.min(
      Math.max(floor, Math.round(grown * (0.8 + 0.4 * random()))),
      Math.max(ceiling, floor),
    );
    const left = lifetime - (Date.now() - started);
    await sleep(Math.min(wait, Math.max(0, left)), options.signal);
  }
}
