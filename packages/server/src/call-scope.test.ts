import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openCallScope } from './call-scope.ts';

describe('openCallScope', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires the signal on the deadline with DEADLINE_EXCEEDED and then refuses commits', async () => {
    const scope = openCallScope({ tool: 't', deadlineMs: 100 });
    let writes = 0;
    expect(scope.commit(() => ++writes)).toBe(1);
    expect(scope.changed).toBe(true);
    vi.advanceTimersByTime(99);
    expect(scope.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(scope.signal.aborted).toBe(true);
    expect(await scope.aborted).toMatchObject({ code: 'DEADLINE_EXCEEDED', deadlineMs: 100 });
    expect(() => scope.commit(() => ++writes)).toThrow(
      expect.objectContaining({ code: 'DEADLINE_EXCEEDED' }),
    );
    expect(writes).toBe(1);
  });

  it('counts an asynchronous commit as a change only once it succeeded or failed for another reason', async () => {
    const refused = openCallScope({ tool: 't', deadlineMs: 100 });
    const write = refused.commit(
      () =>
        new Promise<void>((resolve, reject) => {
          refused.signal.addEventListener('abort', () => {
            reject(refused.signal.reason as Error);
          });
          setTimeout(resolve, 500);
        }),
    );
    expect(refused.changed).toBe(false);
    vi.advanceTimersByTime(100);
    await expect(write).rejects.toMatchObject({ code: 'DEADLINE_EXCEEDED' });
    expect(refused.changed).toBe(false);

    const done = openCallScope({ tool: 't', deadlineMs: 100 });
    await done.commit(() => Promise.resolve(1));
    expect(done.changed).toBe(true);

    const failed = openCallScope({ tool: 't', deadlineMs: 100 });
    await expect(failed.commit(() => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
    // A transaction that failed rolled back: nothing was committed, so nothing changed.
    expect(failed.changed).toBe(false);
  });

  it('counts the deadline from the arrival time', () => {
    const scope = openCallScope({ tool: 't', deadlineMs: 100, startedAt: Date.now() - 60 });
    vi.advanceTimersByTime(40);
    expect(scope.signal.aborted).toBe(true);
  });

  it('turns an upstream abort into a cancellation that names the reason', () => {
    const upstream = new AbortController();
    const scope = openCallScope({ tool: 'tasks_get', deadlineMs: 1000, upstream: upstream.signal });
    upstream.abort('user pressed stop');
    expect(scope.signal.reason).toMatchObject({ code: 'CALL_CANCELLED', name: 'CallCancelledError' });
    expect((scope.signal.reason as Error).message).toContain('user pressed stop');
    expect(scope.changed).toBe(false);
  });

  it('ignores aborts and the deadline after close (the SDK closes the request after completion)', () => {
    const upstream = new AbortController();
    const scope = openCallScope({ tool: 't', deadlineMs: 50, upstream: upstream.signal });
    scope.close();
    upstream.abort(new Error('Connection closed'));
    scope.cancel('late');
    vi.advanceTimersByTime(100);
    expect(scope.signal.aborted).toBe(false);
  });

  it('starts aborted when the upstream signal already fired', () => {
    const upstream = new AbortController();
    upstream.abort('gone');
    const scope = openCallScope({ tool: 't', deadlineMs: 50, upstream: upstream.signal });
    expect(scope.signal.aborted).toBe(true);
  });
});
