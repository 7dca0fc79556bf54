/**
 * The tasks-extension runtime: creates durable tasks, runs their work in this process, and answers the task
 * methods from the shared {@link TaskStore}, so any instance can serve a task another instance runs.
 *
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.ts';
import { isTerminal, type StoredTask, type TaskError, type TaskPatch, type TaskStore } from './task-store.ts';

/** 1 hour: how long a task is kept after it was created, by default. */
export const DEFAULT_TASK_TTL_MS = 60 * 60 * 1000;
/** 1 second: the poll interval suggested to clients, by default. */
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1000;
/** 15 seconds: how long an instance vouches for the tasks it runs between two heartbeats, by default. */
export const DEFAULT_TASK_LEASE_MS = 15_000;
/** How often work waiting for input looks for answers another instance stored, in milliseconds. */
export const INPUT_POLL_MS = 200;

/** How the work of a task ended. */
export type TaskOutcome =
  | { readonly kind: 'result'; readonly result: Record<string, unknown>; readonly statusMessage?: string }
  | { readonly kind: 'error'; readonly error: TaskError }
  | { readonly kind: 'cancelled'; readonly statusMessage?: string };

/** What running work gets from the runtime. */
export interface TaskWork {
  readonly taskId: string;
  /** Fires when `tasks/cancel` reaches the task (on this instance or, within a heartbeat, on another). */
  readonly signal: AbortSignal;
  /** Shows `message` as the task's `statusMessage` (e.g. progress); best effort, never throws. */
  status(message: string): Promise<void>;
  /**
   * Parks the task in `input_required` with `requests` (keys must be unique over the task's life) and resolves
   * with the answers once every key was answered through `tasks/update`. Rejects with the abort reason on cancel.
   */
  input(requests: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** One task to start. */
export interface TaskLaunch {
  readonly ownerId: string;
  readonly tool: string;
  /** Runs the work; should honour `work.signal`. A rejection fails the task with -32603. */
  run(work: TaskWork): Promise<TaskOutcome>;
  /** Called once the task settled (for the call log). */
  onSettled?(task: StoredTask): void;
}

/** Options of {@link createTaskRuntime}. */
export interface TaskRuntimeOptions {
  readonly store: TaskStore;
  readonly logger: Logger;
  /** How long a task is kept after its creation (default 1 h). Must exceed every task deadline. */
  readonly ttlMs?: number;
  /** Suggested poll interval (default 1000 ms). */
  readonly pollIntervalMs?: number;
  /** Lease of this instance over its running tasks (default 15 s); a heartbeat renews it every third. */
  readonly leaseMs?: number;
  /** This instance's id (default random). */
  readonly instanceId?: string;
}

/** The runtime behind the task methods; see {@link createTaskRuntime}. */
export interface TaskRuntime {
  readonly instanceId: string;
  readonly ttlMs: number;
  /** Stores a new `working` task, starts its work and resolves with the stored task (durable). */
  launch(launch: TaskLaunch): Promise<StoredTask>;
  /** The caller's task; -32602 when it is unknown, expired or another caller's. */
  view(taskId: string, ownerId: string): Promise<StoredTask>;
  /** Delivers input answers; unknown and already answered keys are ignored. -32602 as {@link TaskRuntime.view}. */
  update(taskId: string, ownerId: string, responses: Record<string, unknown>): Promise<void>;
  /** Asks for cancellation; a terminal task is left as it is. -32602 as {@link TaskRuntime.view}. */
  cancel(taskId: string, ownerId: string): Promise<void>;
  /** One heartbeat: renew leases, stop cancelled work, fail orphans, purge expired tasks. */
  sweep(): Promise<void>;
  /** Stops the heartbeat and fails the tasks still running here (the server is stopping). */
  close(): Promise<void>;
}

/** Creates a 128-bit random task id (base64url), unguessable by other callers. */
export function newTaskId(): string {
  return `tsk_${randomBytes(16).toString('base64url')}`;
}

function unknownTask(taskId: string): ProtocolError {
  const shown = taskId.length > 80 ? `${taskId.slice(0, 80)}…` : taskId;
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown task: ${shown}. No task with this id exists for you: it was never created, it expired after its ` +
      `ttlMs, or another caller created it. Use the taskId a tools/call returned, or call the tool again.`,
    { taskId: shown },
  );
}

interface LocalRun {
  readonly controller: AbortController;
  wake(): void;
}

const ORPHAN_MESSAGE =
  'The server instance running this task stopped before the task finished. The work may be partly done; ' +
  'check its effects before calling the tool again.';

/**
 * Creates the runtime and starts its heartbeat (unref'd, every `leaseMs / 3`). Every write is a compare-and-set,
 * retried on a concurrent change, and never touches a settled task.
 */
export function createTaskRuntime(options: TaskRuntimeOptions): TaskRuntime {
  const { store, logger } = options;
  const ttlMs = options.ttlMs ?? DEFAULT_TASK_TTL_MS;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS;
  const leaseMs = options.leaseMs ?? DEFAULT_TASK_LEASE_MS;
  const instanceId = options.instanceId ?? `inst_${randomBytes(8).toString('base64url')}`;
  const local = new Map<string, LocalRun>();
  const log = logger.child({ component: 'tasks' });

  /** Re-reads and re-applies `change` until the write lands; undefined when the task is gone or settled. */
  async function mutate(
    taskId: string,
    change: (task: StoredTask) => TaskPatch | undefined,
  ): Promise<StoredTask | undefined> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const task = await store.find(taskId);
      if (task === undefined || isTerminal(task.status)) return task;
      const patch = change(task);
      if (patch === undefined) return task;
      const written = await store.patch(taskId, task.version, patch, Date.now());
      if (written !== undefined) return written;
    }
    throw new Error(`Task ${taskId} changed 50 times in a row while being written.`);
  }

  async function settle(taskId: string, outcome: TaskOutcome): Promise<StoredTask | undefined> {
    const patch: TaskPatch =
      outcome.kind === 'result'
        ? {
            status: 'completed',
            result: outcome.result,
            statusMessage: outcome.statusMessage ?? null,
            inputRequests: {},
          }
        : outcome.kind === 'error'
          ? {
              status: 'failed',
              error: outcome.error,
              statusMessage: outcome.error.message,
              inputRequests: {},
            }
          : {
              status: 'cancelled',
              statusMessage: outcome.statusMessage ?? 'Cancelled at the caller’s request.',
              inputRequests: {},
            };
    return mutate(taskId, () => patch);
  }

  function workFor(taskId: string, run: LocalRun): TaskWork {
    const signal = run.controller.signal;
    let waiting: (() => void) | undefined;
    run.wake = () => waiting?.();
    return {
      taskId,
      signal,
      async status(message) {
        try {
          await mutate(taskId, () => ({ statusMessage: message }));
        } catch (error) {
          log.debug({ err: error, taskId }, 'task status message could not be stored');
        }
      },
      async input(requests) {
        const keys = Object.keys(requests);
        await mutate(taskId, (task) => ({
          status: 'input_required',
          inputRequests: { ...task.inputRequests, ...requests },
        }));
        for (;;) {
          signal.throwIfAborted();
          const task = await store.find(taskId);
          if (task === undefined || isTerminal(task.status)) throw new Error(`Task ${taskId} ended.`);
          if (keys.every((key) => key in task.inputResponses)) {
            const answers = Object.fromEntries(keys.map((key) => [key, task.inputResponses[key]]));
            await mutate(taskId, (current) => ({
              inputResponses: Object.fromEntries(
                Object.entries(current.inputResponses).filter(([key]) => !keys.includes(key)),
              ),
            }));
            return answers;
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, INPUT_POLL_MS);
            waiting = () => {
              clearTimeout(timer);
              resolve();
            };
            signal.addEventListener('abort', () => waiting?.(), { once: true });
          });
          waiting = undefined;
        }
      },
    };
  }

  async function owned(taskId: string, ownerId: string): Promise<StoredTask> {
    let task = await store.find(taskId);
    const now = Date.now();
    if (task === undefined || task.ownerId !== ownerId || task.createdAt + task.ttlMs < now)
      throw unknownTask(taskId);
    if (!isTerminal(task.status) && task.leaseUntil < now) {
      await store.failOrphans(
        now,
        { code: ProtocolErrorCode.InternalError, message: ORPHAN_MESSAGE },
        ORPHAN_MESSAGE,
      );
      task = (await store.find(taskId)) ?? task;
    }
    return task;
  }

  async function sweep(): Promise<void> {
    const now = Date.now();
    const cancelled = await store.renewLeases(instanceId, now + leaseMs);
    for (const taskId of cancelled) local.get(taskId)?.controller.abort(new Error('tasks/cancel'));
    const orphans = await store.failOrphans(
      now,
      { code: ProtocolErrorCode.InternalError, message: ORPHAN_MESSAGE },
      ORPHAN_MESSAGE,
    );
    if (orphans > 0) log.warn({ orphans }, 'failed tasks whose instance stopped');
    await store.purgeExpired(now);
  }

  const heartbeat = setInterval(
    () => {
      sweep().catch((error: unknown) => log.error({ err: error }, 'task heartbeat failed'));
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  heartbeat.unref();

  return {
    instanceId,
    ttlMs,
    async launch(launch) {
      const now = Date.now();
      const task: StoredTask = {
        taskId: newTaskId(),
        ownerId: launch.ownerId,
        tool: launch.tool,
        status: 'working',
        statusMessage: null,
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs,
        pollIntervalMs,
        result: null,
        error: null,
        inputRequests: {},
        inputResponses: {},
        cancelRequested: false,
        instanceId,
        leaseUntil: now + leaseMs,
        version: 1,
      };
      await store.insert(task);
      const run: LocalRun = { controller: new AbortController(), wake: () => undefined };
      local.set(task.taskId, run);
      const work = workFor(task.taskId, run);
      void (async () => {
        let outcome: TaskOutcome;
        try {
          outcome = await launch.run(work);
        } catch (error) {
          if (run.controller.signal.aborted) outcome = { kind: 'cancelled' };
          else {
            log.error(
              { err: error, taskId: task.taskId, tool: launch.tool },
              'task work failed outside its tool',
            );
            outcome = {
              kind: 'error',
              error: {
                code: ProtocolErrorCode.InternalError,
                message: `The server failed while running ${launch.tool} as a task. Retrying may help.`,
              },
            };
          }
        }
        try {
          const settled = await settle(task.taskId, outcome);
          if (settled !== undefined) launch.onSettled?.(settled);
        } catch (error) {
          log.error({ err: error, taskId: task.taskId }, 'task outcome could not be stored');
        } finally {
          local.delete(task.taskId);
        }
      })();
      return task;
    },
    view: owned,
    async update(taskId, ownerId, responses) {
      await owned(taskId, ownerId);
      await mutate(taskId, (task) => {
        const answered = Object.keys(responses).filter((key) => key in task.inputRequests);
        if (answered.length === 0) return undefined;
        const inputRequests = Object.fromEntries(
          Object.entries(task.inputRequests).filter(([key]) => !answered.includes(key)),
        );
        const inputResponses = { ...task.inputResponses };
        for (const key of answered) inputResponses[key] = responses[key];
        return {
          inputRequests,
          inputResponses,
          status: Object.keys(inputRequests).length === 0 ? 'working' : 'input_required',
        };
      });
      local.get(taskId)?.wake();
    },
    async cancel(taskId, ownerId) {
      await owned(taskId, ownerId);
      await mutate(taskId, (task) => (task.cancelRequested ? undefined : { cancelRequested: true }));
      local.get(taskId)?.controller.abort(new Error('tasks/cancel'));
    },
    sweep,
    async close() {
      clearInterval(heartbeat);
      const running = [...local.keys()];
      await Promise.all(
        running.map((taskId) =>
          settle(taskId, {
            kind: 'error',
            error: {
              code: ProtocolErrorCode.InternalError,
              message: 'The server stopped before this task finished. Call the tool again to start it anew.',
            },
          }).catch(() => undefined),
        ),
      );
      for (const run of local.values()) run.controller.abort(new Error('server stopping'));
    },
  };
}
