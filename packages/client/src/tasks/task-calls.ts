/**
 * Task-backed tool calls (the 2026-07-28 tasks extension, `io.modelcontextprotocol/tasks`) for `RecourseClient`:
 * the official `@modelcontextprotocol/ext-tasks` session submits the call and reads the task (wire shapes,
 * negotiation, codecs); Recourse adds the policy around it: polling with a floor, jittered backoff up to a cap,
 * failed polls survived up to a count, a maximum lifetime, cancellation of what it abandons, typed failures, and
 * a task reference that can be persisted and resumed after a restart.
 *
 * @packageDocumentation
 */
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  DispatchError,
  type RawClientDispatch,
  type TaskEnabledSession,
  type TaskView,
} from '@modelcontextprotocol/ext-tasks/client';
import { taskId as asTaskId, type JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { CallToolResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { AttemptRecord } from '../attempt-log.ts';
import { classifyResult } from '../classify.ts';
import { ProtocolCallError, type RecourseCallError } from '../errors.ts';
import { pollTask, TaskPollError, type TaskSnapshot } from '../task-poller.ts';
import { createHttpRawDispatch, TASKS_PROTOCOL_VERSION } from './http-raw-dispatch.ts';
import { failureOfSubmission, failureOfTask, pollFailure } from './task-failures.ts';

/** How a task-backed call polls; every field has a default. */
export interface TaskPolicy {
  /** Floor of the wait between polls when the server suggests no `pollIntervalMs` (default 250 ms). */
  readonly minIntervalMs?: number;
  /** Cap of the backed-off, jittered wait (default 10 000 ms; never below the server's `pollIntervalMs`). */
  readonly maxIntervalMs?: number;
  /** Failed polls in a row that end the wait (default 5): fewer are survived. */
  readonly maxFailedPolls?: number;
  /** Longest wait for the task (default 10 minutes); the task is then cancelled. */
  readonly maxLifetimeMs?: number;
}

/** What identifies a task across a restart: persist it, then pass it to `RecourseClient.resumeTask`. */
export interface TaskReference {
  readonly taskId: string;
  /** The tool that started it (for messages and the attempt log). */
  readonly tool: string;
  /** The MCP endpoint it lives on. */
  readonly url: string;
}

/** Per-call task options of `callTool` and `resumeTask`. */
export interface TaskCallOptions {
  /**
   * Called once the server created the task, before polling starts: persist the reference here. When it throws,
   * the task is cancelled and the call rejects with that error.
   */
  readonly onCreated?: (reference: TaskReference) => void | Promise<void>;
  /** Sees every task snapshot (status and `statusMessage`, e.g. progress). */
  readonly onStatus?: (snapshot: TaskSnapshot) => void;
  /** Overrides the client's task policy for this call. */
  readonly policy?: TaskPolicy;
}

/** The HTTP target task calls go to. */
export interface TaskTarget {
  readonly url: string;
  readonly token?: string;
}

/** One task-backed call as `RecourseClient` hands it over. */
export interface TaskCallPlan {
  readonly server: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly signal: AbortSignal | undefined;
  /** Per-request timeout of the submission and of each poll. */
  readonly requestTimeoutMs: number;
  readonly options: TaskCallOptions;
}

/** A settled task-backed call: the final tool result and the attempt log. */
export interface TaskCallResult {
  readonly result: CallToolResult;
  readonly attempts: readonly AttemptRecord[];
  /** The task that produced it; undefined when the server answered at once. */
  readonly taskId: string | undefined;
}

const CLIENT_INFO = { name: 'recourse-client', version: '0.1.0' };

/**
 * The session repeats a request at once when its dispatch failed retryably. For `tasks/get` the Recourse poller
 * decides when a failed poll is repeated (after the floor, with backoff, counted against `maxFailedPolls`), so
 * those failures are passed up as not retryable: one poll is one request.
 */
function pollsNotRetried(dispatch: RawClientDispatch): RawClientDispatch {
  return async (request, options) => {
    try {
      return await dispatch(request, options);
    } catch (error) {
      const method = (request as { method?: unknown } | null)?.method;
      if (error instanceof DispatchError && error.retryable && method === 'tasks/get')
        throw new DispatchError(error.message, false, { cause: error });
      throw error;
    }
  };
}

function snapshotOf(view: TaskView): TaskSnapshot {
  const raw = view.raw as Record<string, unknown>;
  return {
    taskId: view.taskId,
    status: view.status,
    ...(view.statusMessage === undefined ? {} : { statusMessage: view.statusMessage }),
    ...(view.createdAt === undefined ? {} : { createdAt: view.createdAt }),
    ttlMs: view.retentionMs,
    ...(view.suggestedPollIntervalMs === undefined ? {} : { pollIntervalMs: view.suggestedPollIntervalMs }),
    ...('result' in raw ? { result: raw.result } : {}),
    ...(raw.error === undefined ? {} : { error: raw.error as NonNullable<TaskSnapshot['error']> }),
    ...('inputRequests' in raw ? { inputRequests: raw.inputRequests } : {}),
  };
}

/**
 * The task side of one `RecourseClient` on an HTTP target: one ext-tasks session per connected SDK client (the
 * package allows one adapter per client), created on first use and replaced when the connection is replaced.
 */
export class TaskCalls {
  readonly #target: TaskTarget;
  readonly #policy: TaskPolicy;
  readonly #clientOf: () => Promise<Client>;
  #session: { readonly client: Client; readonly session: TaskEnabledSession } | undefined;

  constructor(target: TaskTarget, policy: TaskPolicy, clientOf: () => Promise<Client>) {
    this.#target = target;
    this.#policy = policy;
    this.#clientOf = clientOf;
  }

  async #sessionFor(): Promise<TaskEnabledSession> {
    const client = await this.#clientOf();
    if (this.#session?.client === client) return this.#session.session;
    await this.#session?.session.close().catch(() => undefined);
    const session = createTaskSessionFromClient(client, {
      endpointId: `recourse:${this.#target.url}`,
      rawDispatch: pollsNotRetried(
        createHttpRawDispatch({
          url: this.#target.url,
          ...(this.#target.token === undefined ? {} : { token: this.#target.token }),
        }),
      ),
      v2RequestFraming: {
        protocolVersion: TASKS_PROTOCOL_VERSION,
        clientInfo: CLIENT_INFO,
        clientCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      },
    });
    this.#session = { client, session };
    return session;
  }

  /**
   * Submits the call; a task is then polled to its end under the policy. Resolves with the final result;
   * rejects with a `RecourseCallError` (see {@link failureOfTask} and {@link pollFailure}).
   */
  async call(plan: TaskCallPlan): Promise<TaskCallResult> {
    const startedAt = Date.now();
    const record = (outcome: AttemptRecord['outcome'], code?: string): AttemptRecord =>
      attemptRecord(plan, 1, startedAt, outcome, code);
    let execution;
    try {
      const session = await this.#sessionFor();
      execution = await session.callTool(plan.tool, plan.args as Record<string, JsonValue>, {
        requestTimeoutMs: plan.requestTimeoutMs,
        ...(plan.signal === undefined ? {} : { signal: plan.signal }),
      });
    } catch (error) {
      const failure = failureOfSubmission(error, plan);
      throw withAttempts(failure, [record(outcomeOf(failure), failure.code)]);
    }
    if (execution.kind === 'immediate') {
      const { outcome } = await execution.settle();
      const attempt = record('ok');
      if (outcome.status !== 'completed')
        throw withAttempts(failureOfTask(undefined, outcome, plan), [attempt]);
      return this.#finish(plan, outcome.result as unknown as CallToolResult, [attempt], undefined);
    }
    const taskId = execution.handle.taskId;
    // Recourse polls under its own policy; the package's own driver is not started.
    await execution.detach();
    const attempts = [record('ok', 'TASK_CREATED')];
    try {
      await plan.options.onCreated?.({ taskId, tool: plan.tool, url: this.#target.url });
    } catch (error) {
      // Nobody will wait for a task whose reference could not be kept: cancel it, then report the caller's error.
      await this.#cancelQuietly(taskId);
      throw error;
    }
    return this.#await(plan, taskId, attempts);
  }

  /** Polls an existing task (e.g. a persisted {@link TaskReference}) to its end; as {@link call}. */
  async resume(plan: Omit<TaskCallPlan, 'args'>, taskId: string): Promise<TaskCallResult> {
    return this.#await({ ...plan, args: {} }, taskId, []);
  }

  async #await(plan: TaskCallPlan, taskId: string, attempts: AttemptRecord[]): Promise<TaskCallResult> {
    const policy = { ...this.#policy, ...plan.options.policy };
    const startedAt = Date.now();
    let snapshot: TaskSnapshot;
    try {
      const session = await this.#sessionFor();
      const controller = session.task(asTaskId(taskId), { requestTimeoutMs: plan.requestTimeoutMs });
      snapshot = await pollTask(taskId, {
        ...policy,
        get: async (_id, signal) => snapshotOf(await controller.snapshot(signal)),
        cancel: () => controller.cancel(),
        ...(plan.signal === undefined ? {} : { signal: plan.signal }),
        ...(plan.options.onStatus === undefined ? {} : { onUpdate: plan.options.onStatus }),
      });
    } catch (error) {
      const failure =
        error instanceof TaskPollError ? pollFailure(error, plan) : failureOfSubmission(error, plan);
      throw withAttempts(failure, [
        ...attempts,
        attemptRecord(plan, attempts.length + 1, startedAt, outcomeOf(failure), failure.code),
      ]);
    }
    const polled = [...attempts, attemptRecord(plan, attempts.length + 1, startedAt, 'ok', snapshot.status)];
    if (snapshot.status !== 'completed') {
      if (snapshot.status === 'input_required') await this.#cancelQuietly(taskId);
      throw withAttempts(failureOfTask(taskId, snapshot, plan), polled);
    }
    const parsed = CallToolResultV2Schema.safeParse(snapshot.result);
    if (!parsed.success || parsed.data.resultType !== 'complete')
      throw withAttempts(
        new ProtocolCallError({
          server: plan.server,
          tool: plan.tool,
          rpcCode: -32603,
          message: `Task ${taskId} of ${plan.tool} completed with a result that is not a tool result. The server is at fault; its answer cannot be used.`,
        }),
        polled,
      );
    return this.#finish(plan, snapshot.result as CallToolResult, polled, taskId);
  }

  #finish(
    plan: TaskCallPlan,
    result: CallToolResult,
    attempts: AttemptRecord[],
    taskId: string | undefined,
  ): TaskCallResult {
    const failure = classifyResult(result, plan.server, plan.tool);
    if (failure !== undefined) throw withAttempts(failure, attempts);
    return { result, attempts, taskId };
  }

  /** Sends `tasks/cancel` for a task nobody will wait for; best effort. */
  async #cancelQuietly(taskId: string): Promise<void> {
    try {
      await (await this.#sessionFor()).task(asTaskId(taskId)).cancel();
    } catch {
      // The task runs on until its TTL; nothing else can be done from here.
    }
  }

  /** Closes the session (not the SDK client, which the connection owns). */
  async close(): Promise<void> {
    await this.#session?.session.close().catch(() => undefined);
    this.#session = undefined;
  }
}

/** One record of the attempt log: the submission (attempt 1) or the polling of a task. */
function attemptRecord(
  plan: TaskCallPlan,
  attempt: number,
  startedAt: number,
  outcome: AttemptRecord['outcome'],
  code: string | undefined,
): AttemptRecord {
  return {
    attempt,
    server: plan.server,
    tool: plan.tool,
    outcome,
    startedAt,
    durationMs: Date.now() - startedAt,
    waitBeforeMs: 0,
    ...(code === undefined ? {} : { code }),
    protocolVersion: TASKS_PROTOCOL_VERSION,
  };
}

function outcomeOf(failure: RecourseCallError): AttemptRecord['outcome'] {
  if (failure.kind === 'tool') return 'tool_failure';
  if (failure.kind === 'protocol') return 'protocol_error';
  return failure.reason === 'timeout' || failure.reason === 'cancelled' ? failure.reason : 'transport';
}

function withAttempts<E extends RecourseCallError>(failure: E, attempts: readonly AttemptRecord[]): E {
  failure.attempts = attempts;
  return failure;
}
