import { describe, expect, it } from 'vitest';
import {
  businessRule,
  conflict,
  internalFailure,
  invalidArgument,
  notFound,
  permissionDenied,
  rateLimited,
  transientFailure,
} from './failure-helpers.ts';
import { isToolFailure, ToolFailure } from './failure.ts';
import { renderFailureText } from './failure-text.ts';

describe('failure helpers', () => {
  it('never marks validation, not_found, conflict, permission or business failures retryable', () => {
    const failures = [
      invalidArgument({ field: 'priority', received: 'urgent', expected: 'one of low, normal, high' }),
      notFound({ message: 'No task T-9.' }),
      conflict({ message: 'Task T-1 is at version 4, not 3.' }),
      permissionDenied({ permission: 'tasks:create', role: 'viewer', grantedTo: ['owner'] }),
      businessRule({ message: 'A done task cannot move back to todo.' }),
    ];
    for (const f of failures) {
      expect(isToolFailure(f)).toBe(true);
      expect(f.failure.retryable).toBe(false);
      expect(f.failure.changed).toBe(false);
      expect(f.failure.retryAfterMs).toBeUndefined();
    }
    expect(failures.map((f) => f.failure.category)).toEqual([
      'validation',
      'not_found',
      'conflict',
      'permission',
      'business',
    ]);
  });

  it('builds the not_found text from the issue example', () => {
    const f = notFound({
      code: 'TASK_NOT_FOUND',
      message: 'No task T-9.',
      expected: 'Task refs look like T-1.',
      next: 'Call tasks_search to find a task by its title.',
    });
    expect(f.failure.code).toBe('TASK_NOT_FOUND');
    expect(f.message).toBe('No task T-9.');
    const text = renderFailureText(f.failure);
    expect(text).toContain('T-9');
    expect(text).toContain('Task refs look like T-1.');
    expect(text).toContain('tasks_search');
    expect(text).toContain('Nothing was changed.');
  });

  it('marks rate_limit and transient failures retryable with a wait', () => {
    const rl = rateLimited({ retryAfterMs: 22_500, limit: 60, windowMs: 60_000 });
    expect(rl.failure).toMatchObject({
      category: 'rate_limit',
      code: 'RATE_LIMITED',
      retryable: true,
      retryAfterMs: 22_500,
    });
    expect(rl.failure.message).toBe('Too many calls: the limit is 60 calls per 60 s.');
    expect(renderFailureText(rl.failure)).toContain('Wait 23 s and try again.');
    const tr = transientFailure({
      code: 'UPSTREAM_TIMEOUT',
      message: 'The search index did not answer in time.',
    });
    expect(tr.failure).toMatchObject({
      category: 'transient',
      retryable: true,
      retryAfterMs: 1000,
      code: 'UPSTREAM_TIMEOUT',
    });
  });

  it('renders received values quoted, truncated and redacted in invalidArgument', () => {
    const f = invalidArgument({
      field: 'priority',
      received: 'urgent',
      expected: 'one of low, normal, high',
    });
    expect(f.failure.message).toBe('Argument `priority` is "urgent"; expected one of low, normal, high.');
    expect(f.failure).toMatchObject({
      field: 'priority',
      received: '"urgent"',
      expected: 'one of low, normal, high',
    });
    const secret = invalidArgument({
      field: 'note',
      received: 'postgres://admin:hunter2@10.0.0.5/board',
      expected: 'plain text',
    });
    expect(secret.failure.message).not.toContain('hunter2');
    expect(secret.failure.received).not.toContain('hunter2');
    const long = invalidArgument({
      field: 'title',
      received: 'x'.repeat(500),
      expected: 'at most 200 characters',
    });
    expect(long.failure.received!.length).toBeLessThan(70);
    expect(long.failure.received!.endsWith('…')).toBe(true);
    const hidden = invalidArgument({
      field: 'auth.password',
      received: 'hunter2',
      expected: 'at least 12 characters',
    });
    expect(hidden.failure.message).toBe(
      'Argument `auth.password` is [redacted-secret]; expected at least 12 characters.',
    );
    const missing = invalidArgument({ field: 'title', expected: 'a string' });
    expect(missing.failure.message).toBe('Argument `title` is missing; expected a string.');
  });

  it('names permission, role and holders in permissionDenied', () => {
    const f = permissionDenied({
      tool: 'tasks_create',
      permission: 'tasks:create',
      role: 'viewer',
      grantedTo: ['owner', 'maintainer', 'contributor'],
    });
    expect(f.failure.permission).toEqual({
      missing: 'tasks:create',
      role: 'viewer',
      grantedTo: ['owner', 'maintainer', 'contributor'],
    });
    const text = renderFailureText(f.failure);
    expect(text).toContain('Your role viewer may not call tasks_create.');
    expect(text).toContain('roles that hold it: owner, maintainer, contributor');
    expect(text).toContain('Retrying unchanged will not help.');
  });

  it('builds the standard internal text with the correlation id and no detail of the cause', () => {
    const cause = new Error('connect ECONNREFUSED 10.0.3.7:5432');
    const f = internalFailure({ tool: 'tasks_get', correlationId: 'c_7Hq2abcdefghijklmn', cause });
    expect(f.cause).toBe(cause);
    expect(f.failure.retryable).toBe(false);
    const text = renderFailureText(f.failure);
    expect(text).toBe(
      'The server failed while running tasks_get. Nothing was changed. Retrying unchanged will not help. The server logged this failure as c_7Hq2abcdefghijklmn; quote it when reporting the problem.',
    );
    const retry = internalFailure({
      tool: 'tasks_get',
      correlationId: 'c_x',
      retryable: true,
      retryAfterMs: 500,
    });
    expect(retry.failure).toMatchObject({ retryable: true, retryAfterMs: 500 });
  });

  it('keeps changed counts and correlation ids given in options', () => {
    const f = conflict({ message: 'Import stopped at row 4.', changed: 3, correlationId: 'c_abc' });
    expect(f.failure).toMatchObject({ changed: 3, correlationId: 'c_abc' });
  });
});

describe('ToolFailure', () => {
  it('is an Error without stack frames, and leaves the stack trace limit as it found it', () => {
    const limit = Error.stackTraceLimit;
    const failure = notFound({ code: 'TASK_NOT_FOUND', message: 'No task T-9 exists on the board.' });
    expect(failure).toBeInstanceOf(Error);
    expect(failure.stack).toBe('ToolFailure: No task T-9 exists on the board.');
    expect(failure.with({ correlationId: 'c_1' }).stack).not.toContain('\n');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('elsewhere').stack).toContain('\n    at ');
  });

  it('keeps the stack of its cause', () => {
    const cause = new Error('disk full');
    const failure = new ToolFailure(
      {
        category: 'transient',
        code: 'DISK_FULL',
        message: 'The disk is full.',
        retryable: true,
        changed: false,
      },
      { cause },
    );
    expect((failure.cause as Error).stack).toContain('\n    at ');
  });
});
