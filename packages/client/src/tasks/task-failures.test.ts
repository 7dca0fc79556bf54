import { describe, expect, it } from 'vitest';
import { DispatchError, JsonRpcResponseError } from '@modelcontextprotocol/ext-tasks/client';
import { TaskPollError } from '../task-poller.ts';
import { failureOfSubmission, failureOfTask, pollFailure } from './task-failures.ts';

const call = { server: 'board', tool: 'board_export', signal: undefined };

describe('task failures', () => {
  it('maps a failed task to a protocol error with its code, and a cancelled one to a local cancellation', () => {
    const failed = failureOfTask(
      'tsk_1',
      { status: 'failed', error: { code: -32603, message: 'Boom.' } },
      call,
    );
    expect(failed).toMatchObject({ kind: 'protocol', rpcCode: -32603 });
    expect(failed.message).toMatch(
      /^Task tsk_1 of board_export failed on the server \(JSON-RPC -32603\): Boom\./,
    );
    const cancelled = failureOfTask('tsk_2', { status: 'cancelled', statusMessage: 'Stopped.' }, call);
    expect(cancelled).toMatchObject({ kind: 'local', reason: 'cancelled', mayHaveReachedServer: true });
    expect(cancelled.message).toContain('The server said: Stopped.');
    const waiting = failureOfTask('tsk_3', { status: 'input_required' }, call);
    expect(waiting).toMatchObject({ kind: 'local', reason: 'input_failed' });
  });

  it('maps each reason the poller gave up for', () => {
    const of = (reason: TaskPollError['reason']) =>
      pollFailure(
        new TaskPollError({ taskId: 'tsk_9', reason, polls: 3, cancelSent: reason !== 'not_found' }),
        call,
      );
    expect(of('not_found')).toMatchObject({ kind: 'protocol', rpcCode: -32602 });
    expect(of('polls_failed')).toMatchObject({ kind: 'local', reason: 'transport', retryable: true });
    expect(of('lifetime')).toMatchObject({ kind: 'local', reason: 'timeout' });
    expect(of('expired')).toMatchObject({ kind: 'local', reason: 'timeout' });
    expect(of('cancelled')).toMatchObject({ kind: 'local', reason: 'cancelled' });
    expect(of('polls_failed').message).toMatch(/^board_export: Polling task tsk_9 failed 3 times in a row/);
  });

  it('maps a refused submission to its JSON-RPC error and a lost one to a transport failure', () => {
    const refused = failureOfSubmission(
      new JsonRpcResponseError({ code: -32021, message: 'Declare the extension.', data: { x: 1 } }),
      call,
    );
    expect(refused).toMatchObject({ kind: 'protocol', rpcCode: -32021, data: { x: 1 } });
    const lost = failureOfSubmission(new DispatchError('no answer', false), call);
    expect(lost).toMatchObject({ kind: 'local', reason: 'transport', mayHaveReachedServer: true });
    expect(lost.message).toContain('Retrying will not help');
    const aborted = new AbortController();
    aborted.abort();
    expect(failureOfSubmission(new Error('aborted'), { ...call, signal: aborted.signal })).toMatchObject({
      reason: 'cancelled',
    });
  });
});
