import { getEventListeners } from 'node:events';
import { SdkError } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AttemptWatch } from './attempt-watch.ts';
import { Deadline } from './deadline.ts';
import { WatchTimer } from './watch-timer.ts';

describe.each([
  ['a native signal', false],
  ['a light signal', true],
])('AttemptWatch with %s (fake timers)', (_name, light) => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => void vi.useRealTimers());

  it('aborts at the deadline and says so, with the SDK timeout error as the reason', async () => {
    const watch = new AttemptWatch(
      new WatchTimer(),
      new Deadline({ timeoutMs: 300, maxTimeoutMs: 1000 }),
      undefined,
      light,
    );
    const heard: unknown[] = [];
    watch.signal.addEventListener('abort', () => heard.push(watch.signal.reason));
    const outcome = watch.watch(new Promise(() => undefined)).catch((error: unknown) => error);
    vi.advanceTimersByTime(299);
    expect(watch.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(watch.cause).toBe('deadline');
    expect(await outcome).toMatchObject({ message: 'Recourse deadline passed.' });
    expect(heard).toEqual([watch.signal.reason]);
    expect(watch.signal.reason).toBeInstanceOf(SdkError);
    watch.end();
  });

  it('lets progress push the deadline up to the hard maximum, then says the hard maximum ended it', () => {
    const watch = new AttemptWatch(
      new WatchTimer(),
      new Deadline({ timeoutMs: 300, maxTimeoutMs: 500 }),
      undefined,
      light,
    );
    vi.advanceTimersByTime(250);
    watch.progress({ progressToken: 1, progress: 1 });
    vi.advanceTimersByTime(249);
    expect(watch.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(watch.cause).toBe('hard_maximum');
  });

  it("passes progress on to the caller's onProgress without the token, and without fields the server left out", () => {
    const seen: unknown[] = [];
    const watch = new AttemptWatch(
      new WatchTimer(),
      new Deadline({ timeoutMs: 300, maxTimeoutMs: 1000 }),
      undefined,
      light,
      (p) => seen.push(p),
    );
    watch.progress({ progressToken: 7, progress: 1, total: 4, message: 'reading' });
    watch.progress({ progressToken: 7, progress: 2 });
    expect(seen).toEqual([{ progress: 1, total: 4, message: 'reading' }, { progress: 2 }]);
    watch.end();
  });

  it('ends with the caller abort as user, and leaves no listener on the caller signal after end', () => {
    const caller = new AbortController();
    const watch = new AttemptWatch(
      new WatchTimer(),
      new Deadline({ timeoutMs: 300, maxTimeoutMs: 300 }),
      caller.signal,
      light,
    );
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort();
    expect(watch.cause).toBe('user');
    watch.end();
    const other = new AbortController();
    const ended = new AttemptWatch(
      new WatchTimer(),
      new Deadline({ timeoutMs: 300, maxTimeoutMs: 300 }),
      other.signal,
      light,
    );
    ended.end();
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });

  it('never aborts its signal after end, not even on a late progress', () => {
    const caller = new AbortController();
    const first = new AttemptWatch(
      new WatchTimer(),
      new Deadline({ timeoutMs: 300, maxTimeoutMs: 1000 }),
      caller.signal,
      light,
    );
    first.end();
    first.progress({ progressToken: 1, progress: 1 }); // a late progress of the finished attempt
    vi.advanceTimersByTime(1000);
    caller.abort();
    expect(first.signal.aborted).toBe(false);
    expect(first.cause).toBeUndefined();
  });
});
