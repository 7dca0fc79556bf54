/**
 * A raw tool's work run as a task (conformance fixtures): its result completes the task, a thrown SDK
 * `ProtocolError` fails it with that JSON-RPC error, anything else completes it with a redacted internal failure.
 *
 * @packageDocumentation
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.ts';
import type { CallRecorder } from '../call-recorder.ts';
import type { RawTaskRun, RawTaskSupport } from '../tool-catalog.ts';
import { mapFailure, type MappedResult } from '../pipeline/result-mapping.ts';
import type { StoredTask } from './task-store.ts';
import type { TaskOutcome, TaskRuntime } from './task-runtime.ts';
import { settledEntry } from './task-submission.ts';

/** What {@link launchRawTask} needs. */
export interface RawTaskLaunch {
  readonly runtime: TaskRuntime;
  readonly tool: string;
  readonly ownerId: string;
  readonly correlationId: string;
  readonly logger: Logger;
  readonly record: CallRecorder;
}

/** A raw tool's unexpected error as a redacted failure result (nothing changed, logged in full). */
function internalResult(launch: RawTaskLaunch, error: unknown): MappedResult {
  return mapFailure(error, {
    tool: launch.tool,
    correlationId: launch.correlationId,
    logger: launch.logger.child({ correlationId: launch.correlationId, tool: launch.tool }),
    changed: false,
    principalId: launch.ownerId,
    keyed: false,
  });
}

/** Launches `run` as a task of `launch.ownerId`; resolves with the stored task. */
export function launchRawTask(launch: RawTaskLaunch, run: RawTaskRun): Promise<StoredTask> {
  return launch.runtime.launch({
    ownerId: launch.ownerId,
    tool: launch.tool,
    async run(work): Promise<TaskOutcome> {
      try {
        return { kind: 'result', result: await run(work) };
      } catch (error) {
        if (work.signal.aborted) return { kind: 'cancelled' };
        if (error instanceof ProtocolError)
          return {
            kind: 'error',
            error: {
              code: error.code,
              message: error.message,
              ...(error.data === undefined ? {} : { data: error.data }),
            },
          };
        return { kind: 'result', result: internalResult(launch, error).result };
      }
    },
    onSettled: (settled) => void launch.record(settledEntry(settled, launch.correlationId)),
  });
}

/**
 * Submits a raw tool as a task: `start` runs with the request's context and either answers an input-required
 * result (returned as is, no task yet) or gives the work, which is launched. A thrown `ProtocolError` is
 * rethrown (a JSON-RPC error for the call); anything else becomes a redacted internal failure.
 */
export async function submitRawTask(
  launch: RawTaskLaunch,
  start: () => ReturnType<RawTaskSupport['start']>,
): Promise<MappedResult> {
  try {
    const started = await start();
    if (typeof started !== 'function') return { result: started, outcome: 'ok', code: null };
    const task = await launchRawTask(launch, started);
    return { result: { content: [] }, outcome: 'ok', code: 'TASK_SUBMITTED', taskId: task.taskId };
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    return internalResult(launch, error);
  }
}
