import { describe, expect, it } from 'vitest';
import { formatWait, renderFailureText } from './failure-text.ts';
import type { FailureData } from './failure.ts';

const base: FailureData = {
  category: 'not_found',
  code: 'TASK_NOT_FOUND',
  message: 'No task T-9.',
  retryable: false,
  changed: false,
};

describe('renderFailureText', () => {
  it('renders a not_found failure naming the ref, the ref format, tasks_search, and that nothing changed', () => {
    const text = renderFailureText({
      ...base,
      expected: 'Task refs look like T-1.',
      next: 'Call tasks_search to find a task by its title.',
    });
    expect(text).toBe(
      'No task T-9. Task refs look like T-1. Call tasks_search to find a task by its title. Nothing was changed. Retrying unchanged will not help.',
    );
  });

  it('adds full stops to fragments and prefixes a fragment `expected` with "Expected"', () => {
    const text = renderFailureText({
      ...base,
      message: 'No task T-9',
      expected: 'a ref like T-1',
      next: 'call tasks_search',
    });
    expect(text).toBe(
      'No task T-9. Expected a ref like T-1. Call tasks_search. Nothing was changed. Retrying unchanged will not help.',
    );
  });

  it('does not repeat `expected` when the message already says it', () => {
    const text = renderFailureText({
      ...base,
      category: 'validation',
      code: 'INVALID_ARGUMENTS',
      message: 'Argument `priority` is "urgent"; expected one of low, normal, high.',
      expected: 'one of low, normal, high',
    });
    expect(text.match(/one of low, normal, high/g)).toHaveLength(1);
  });

  it('does not repeat a sentence the message already contains', () => {
    const text = renderFailureText({ ...base, message: 'No task T-9. Nothing was changed.' });
    expect(text.match(/Nothing was changed/g)).toHaveLength(1);
  });

  it('gives wait advice in whole seconds rounded up, and in ms below one second', () => {
    const rl: FailureData = {
      ...base,
      category: 'rate_limit',
      code: 'RATE_LIMITED',
      message: 'Too many calls.',
      retryable: true,
    };
    expect(renderFailureText({ ...rl, retryAfterMs: 22_001 })).toContain('Wait 23 s and try again.');
    expect(renderFailureText({ ...rl, retryAfterMs: 250 })).toContain('Wait 250 ms and try again.');
    expect(renderFailureText({ ...rl })).toContain('Retrying may help; try again shortly.');
    expect(renderFailureText({ ...rl })).not.toContain('will not help');
  });

  it('says what changed: nothing, part of the work, or a count', () => {
    expect(renderFailureText({ ...base, changed: 3 })).toContain(
      'Part of the work was done: 3 changes were made before it failed.',
    );
    expect(renderFailureText({ ...base, changed: 1 })).toContain('1 change was made before it failed.');
    expect(renderFailureText({ ...base, changed: true })).toContain(
      'Part of the work was done before it failed',
    );
    expect(renderFailureText({ ...base, changed: true })).not.toContain('Nothing was changed');
  });

  it('names the permission, the role and the roles that hold it', () => {
    const text = renderFailureText({
      ...base,
      category: 'permission',
      code: 'PERMISSION_DENIED',
      message: 'Your role viewer may not call tasks_create.',
      permission: {
        missing: 'tasks:create',
        role: 'viewer',
        grantedTo: ['owner', 'maintainer', 'contributor'],
      },
    });
    expect(text).toContain(
      'This needs permission tasks:create; your role is viewer; roles that hold it: owner, maintainer, contributor.',
    );
  });

  it('ends with the correlation id when present', () => {
    const text = renderFailureText({ ...base, correlationId: 'c_abcdefghijklmnop12' });
    expect(
      text.endsWith(
        'The server logged this failure as c_abcdefghijklmnop12; quote it when reporting the problem.',
      ),
    ).toBe(true);
  });

  it('keeps a fragment that ends with punctuation inside quotes or brackets, and closes one that does not', () => {
    const text = renderFailureText({
      ...base,
      message: 'The title was "Done!"',
      expected: 'a title (not empty.)',
      next: 'Call tasks_get …',
    });
    expect(text).toBe(
      'The title was "Done!" Expected a title (not empty.) Call tasks_get … Nothing was changed. Retrying unchanged will not help.',
    );
    expect(renderFailureText({ ...base, message: 'Stopped at ")"' })).toMatch(/^Stopped at "\)"\. /);
  });

  it('ignores case, runs of spaces, tabs, line breaks and final punctuation when looking for a repeat', () => {
    const text = renderFailureText({
      ...base,
      message: 'No task T-9.\tNOTHING  was\nchanged!!',
      expected: 'no task\u00a0T-9',
    });
    expect(text).toBe('No task T-9.\tNOTHING  was\nchanged!! Retrying unchanged will not help.');
  });

  it('is deterministic', () => {
    const f: FailureData = { ...base, next: 'Call tasks_search.', correlationId: 'c_x1234567890123456' };
    expect(renderFailureText(f)).toBe(renderFailureText({ ...f }));
  });
});

describe('formatWait', () => {
  it('rounds up to whole seconds from 1 s and keeps ms below', () => {
    expect(formatWait(999.2)).toBe('1000 ms');
    expect(formatWait(1000)).toBe('1 s');
    expect(formatWait(1001)).toBe('2 s');
    expect(formatWait(-5)).toBe('0 ms');
    expect(formatWait(Number.NaN)).toBe('0 ms');
  });
});
