/**
 * The typed failures of task-backed calls: the three ways a task can fail (the submission, the execution seen at
 * a poll, the polling itself) as the client's one failure union, `RecourseCallError`.
 *
 * @packageDocumentation
 */
import {
  DispatchError,
  JsonRpcResponseError,
  TaskFailedError,
  type TaskOutcome,
} from '@modelcontextprotocol/ext-tasks/client';
import { LocalCallError, ProtocolCallError, type RecourseCallError } from '../errors.ts';
import type { TaskPollError, TaskSnapshot } from '../task-poller.ts';

/** What a failure needs to know about its call. */
export interface FailedCall {
  readonly server: string;
  readonly tool: string;
  readonly signal: AbortSignal | undefined;
}

/** A failure of the submission (`tools/call`) or of a request outside polling. */
export function failureOfSubmission(error: unknown, call: FailedCall): RecourseCallError {
  const { server, tool } = call;
  if (call.signal?.aborted === true)
    return new LocalCallError({
      server,
      tool,
      reason: 'cancelled',
      mayHaveReachedServer: true,
      cause: error,
      message: `The task-backed call of ${tool} was cancelled by the caller before the server answered. A task may have been created; nothing else is known.`,
    });
  if (error instanceof JsonRpcResponseError)
    return new ProtocolCallError({
      server,
      tool,
      rpcCode: error.code,
      data: error.data,
      cause: error,
      message: error.message,
    });
  const retryable = error instanceof DispatchError ? error.retryable : true;
  return new LocalCallError({
    server,
    tool,
    reason: 'transport',
    mayHaveReachedServer: true,
    cause: error,
    message: `The task-backed call of ${tool} on ${server} got no usable answer (${error instanceof Error ? error.message : String(error)}). ${
      retryable ? 'Retrying may help' : 'Retrying will not help'
    }; the server may or may not have started the task.`,
  });
}

type Settled = Pick<TaskSnapshot, 'status' | 'statusMessage' | 'error'> | TaskOutcome<unknown>;

/** A task that ended other than `completed` (or stopped at `input_required`, which the client does not answer). */
export function failureOfTask(
  taskId: string | undefined,
  settled: Settled,
  call: FailedCall,
): RecourseCallError {
  const { server, tool } = call;
  const which = taskId === undefined ? tool : `Task ${taskId} of ${tool}`;
  const said =
    'statusMessage' in settled && settled.statusMessage ? ` The server said: ${settled.statusMessage}` : '';
  if (settled.status === 'failed') {
    const error = settled.error;
    const code = error instanceof TaskFailedError ? (error.code ?? -32603) : (error?.code ?? -32603);
    const message = error?.message ?? 'no message';
    return new ProtocolCallError({
      server,
      tool,
      rpcCode: code,
      data: error instanceof TaskFailedError ? error.data : error?.data,
      message: `${which} failed on the server (JSON-RPC ${code}): ${message} It may have changed something before it failed; check before calling ${tool} again.`,
    });
  }
  if (settled.status === 'input_required')
    return new LocalCallError({
      server,
      tool,
      reason: 'input_failed',
      mayHaveReachedServer: true,
      message: `${which} asks for input (input_required), which task-backed calls of this client do not answer; the task was cancelled.${said} Call ${tool} with \`task: false\` to answer its input inline.`,
    });
  return new LocalCallError({
    server,
    tool,
    reason: 'cancelled',
    mayHaveReachedServer: true,
    message: `${which} was cancelled on the server before it finished (by tasks/cancel from a client holding its id, or by the server).${said} It may have changed something; check before calling ${tool} again.`,
  });
}

/** Polling ended without an outcome: the poller's reason as a typed failure. */
export function pollFailure(error: TaskPollError, call: FailedCall): RecourseCallError {
  const { server, tool } = call;
  const message = `${tool}: ${error.message}`;
  if (error.reason === 'not_found')
    return new ProtocolCallError({ server, tool, rpcCode: -32602, cause: error, message });
  const reason =
    error.reason === 'polls_failed' ? 'transport' : error.reason === 'cancelled' ? 'cancelled' : 'timeout';
  return new LocalCallError({
    server,
    tool,
    reason,
    mayHaveReachedServer: true,
    cause: error,
    message,
  }) as RecourseCallError;
}
