import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AttemptWatch, ControllerPool } from './attempt-watch.ts';
import { Deadline } from './deadline.ts';

describe('ControllerPool', () => {
  it('lends a returned controller again only when it was not aborted and nothing listens on it', () => {
    const pool = new ControllerPool();
    const first = pool.take();
    pool.give(first);
    expect(pool.take()).toBe(first);

    const listened = pool.take();
    const listener = (): void => undefined;
    listened.signal.addEventListener('abort', listener);
    pool.give(listened);
    expect(pool.take()).not.toBe(listened);

    const aborted = pool.take();
    aborted.abort();
    pool.give(aborted);
    const next = pool.take();
    expect(next).not.toBe(aborted);
    expect(next.signal.aborted).toBe(false);
  });
});

describe('AttemptWatch (fake timers)', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => void vi.useRealTimers());

  it('aborts at the deadline, says so, and gives no aborted controller back to the pool', async () => {
    const pool = new ControllerPool();
    const watch = new AttemptWatch(new Deadline({ timeoutMs: 300, maxTimeoutMs: 1000 }), undefined, pool);
    const outcome = watch.watch(new Promise(() => undefined)).catch((error: unknown) => error);
    vi.advanceTimersByTime(299);
    expect(watch.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(watch.cause).toBe('deadline');
    expect(await outcome).toMatchObject({ message: 'Recourse deadline passed.' });
    watch.end();
    expect(pool.take().signal).not.toBe(watch.signal);
  });

  it('lets progress push the deadline up to the hard maximum, then says the hard maximum ended it', () => {
    const watch = new AttemptWatch(new Deadline({ timeoutMs: 300, maxTimeoutMs: 500 }), undefined);
    vi.advanceTimersByTime(250);
    watch.progress();
    vi.advanceTimersByTime(249);
    expect(watch.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(watch.cause).toBe('hard_maximum');
  });

  it('ends with the caller abort as user, and leaves no listener on the caller signal after end', () => {
    const caller = new AbortController();
    const watch = new AttemptWatch(new Deadline({ timeoutMs: 300, maxTimeoutMs: 300 }), caller.signal);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort();
    expect(watch.cause).toBe('user');
    watch.end();
    const other = new AbortController();
    const ended = new AttemptWatch(new Deadline({ timeoutMs: 300, maxTimeoutMs: 300 }), other.signal);
    ended.end();
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });

  it('never aborts a controller after end, so a reused one cannot cancel a later attempt', () => {
    const pool = new ControllerPool();
    const deadline = new Deadline({ timeoutMs: 300, maxTimeoutMs: 1000 });
    const first = new AttemptWatch(deadline, undefined, pool);
    first.end();
    const second = new AttemptWatch(
      new Deadline({ timeoutMs: 10_000, maxTimeoutMs: 10_000 }),
      undefined,
      pool,
    );
    expect(second.signal).toBe(first.signal);
    first.progress(); // a late progress of the finished attempt
    vi.advanceTimersByTime(1000);
    expect(second.signal.aborted).toBe(false);
    second.end();
  });
});
