/**
 * A pipeline tool started as a task: the guards already ran at submission; here the handler runs in the
 * background under the task's own deadline and cancellation, and its mapped result settles the task.
 *
 * @packageDocumentation
 */
import { decodeFailure } from '@recourse/core';
import type { RedactionRule } from '@recourse/core';
import type { Logger } from '../logger.ts';
import type { Principal, ToolContext, ToolSuccess } from '../contract.ts';
import type { CatalogTool } from '../tool-catalog.ts';
import type { CallRecorder } from '../call-recorder.ts';
import { openCallScope } from '../call-scope.ts';
import { raceScope, startHandler, watchLateOutcome } from '../pipeline/handler-step.ts';
import { mapFailure, mapSuccess } from '../pipeline/result-mapping.ts';
import type { StoredTask } from './task-store.ts';
import type { TaskOutcome, TaskRuntime, TaskWork } from './task-runtime.ts';

/** 10 minutes: the deadline of a tool's work when it runs as a task, by default. */
export const DEFAULT_TASK_DEADLINE_MS = 10 * 60 * 1000;

/**
 * The key in a submission's `structuredContent` that names the task it started. An idempotency record of a
 * task submission holds it, so a repeat with the same key answers with that same task.
 */
export const TASK_REF_KEY = 'dev.recourse/taskId';

/** The success recorded for a submission that started `taskId`. */
export function taskSubmitted(tool: string, taskId: string): ToolSuccess {
  return {
    text: `Started ${tool} as task ${taskId}; poll it with tasks/get.`,
    structuredContent: { [TASK_REF_KEY]: taskId },
  };
}

/** The task a (possibly replayed) submission success names, if it is one. */
export function taskRefOf(success: ToolSuccess): string | undefined {
  const ref = success.structuredContent?.[TASK_REF_KEY];
  return typeof ref === 'string' ? ref : undefined;
}

/** A submission whose guards passed: what to run and for whom. */
export interface TaskSubmission {
  readonly principal: Principal;
  readonly args: Record<string, unknown>;
  readonly idempotencyKey?: string;
}

/** Starts a submission as a task and resolves with the success to record (see {@link taskSubmitted}). */
export type TaskSubmitter = (submission: TaskSubmission) => Promise<ToolSuccess>;

/** What {@link pipelineTaskSubmitter} needs. */
export interface PipelineTaskDeps {
  readonly runtime: TaskRuntime;
  readonly tool: CatalogTool;
  readonly correlationId: string;
  readonly logger: Logger;
  /** The rules a successful result's text goes through (none: unchanged). */
  readonly successRules: readonly RedactionRule[] | undefined;
  readonly record: CallRecorder;
}

/** The call-log entry of a settled task (same correlation id as its submission). */
export function settledEntry(task: StoredTask, correlationId: string): Parameters<CallRecorder>[0] {
  const failure =
    task.status === 'completed' && task.result !== null ? decodeFailure(task.result) : undefined;
  return {
    at: new Date(task.lastUpdatedAt).toISOString(),
    principalId: task.ownerId,
    tool: task.tool,
    outcome:
      task.status === 'failed'
        ? 'internal'
        : task.status === 'cancelled'
          ? 'transient'
          : (failure?.category ?? 'ok'),
    code:
      task.status === 'failed'
        ? 'TASK_FAILED'
        : task.status === 'cancelled'
          ? 'TASK_CANCELLED'
          : (failure?.code ?? null),
    durationMs: task.lastUpdatedAt - task.createdAt,
    correlationId,
  };
}

function cancelledText(tool: string, changed: boolean): string {
  return changed
    ? `${tool} was cancelled at the caller’s request after it had changed something; check its effects before calling it again.`
    : `${tool} was cancelled at the caller’s request before it changed anything.`;
}

/**
 * Returns the submitter of one pipeline call: it launches the task and, in the background, runs the handler
 * with a context whose signal fires on `tasks/cancel` or on the task deadline, whose `progress` sets the
 * task's `statusMessage`, and whose `task.input` asks the client for input. A returned success or a
 * `ToolFailure` (mapped to an `isError` result, including deadline and internal failures) completes the task;
 * a cancellation ends it `cancelled`.
 */
export function pipelineTaskSubmitter(deps: PipelineTaskDeps): TaskSubmitter {
  const { definition } = deps.tool;
  const deadlineMs = definition.task?.deadlineMs ?? DEFAULT_TASK_DEADLINE_MS;
  return async (submission) => {
    const run = async (work: TaskWork): Promise<TaskOutcome> => {
      const logger = deps.logger.child({ taskId: work.taskId });
      const scope = openCallScope({ tool: definition.name, deadlineMs, upstream: work.signal });
      const ctx: ToolContext = {
        principal: submission.principal,
        signal: scope.signal,
        correlationId: deps.correlationId,
        deadlineAt: scope.deadlineAt,
        logger,
        ...(submission.idempotencyKey === undefined ? {} : { idempotencyKey: submission.idempotencyKey }),
        async progress(progress, total, message) {
          if (scope.signal.aborted) return;
          const counted = total === undefined ? `${progress}` : `${progress} of ${total}`;
          await work.status(message ?? `${definition.name}: ${counted} done.`);
        },
        commit: (fn) => scope.commit(fn),
        task: { taskId: work.taskId, input: (requests) => work.input(requests) },
      };
      try {
        const handler = startHandler(definition, submission.args, ctx);
        watchLateOutcome(handler, scope, logger);
        const success = await raceScope(handler, scope);
        return {
          kind: 'result',
          result: mapSuccess(success, deps.correlationId, deps.successRules).result,
        };
      } catch (error) {
        if (work.signal.aborted)
          return { kind: 'cancelled', statusMessage: cancelledText(definition.name, scope.changed) };
        const mapped = mapFailure(error, {
          tool: definition.name,
          correlationId: deps.correlationId,
          logger,
          changed: scope.changed,
          principalId: submission.principal.id,
          keyed: submission.idempotencyKey !== undefined,
        });
        return { kind: 'result', result: mapped.result };
      } finally {
        scope.close();
      }
    };
    const task = await deps.runtime.launch({
      ownerId: submission.principal.id,
      tool: definition.name,
      run,
      onSettled: (settled) => void deps.record(settledEntry(settled, deps.correlationId)),
    });
    return taskSubmitted(definition.name, task.taskId);
  };
}
