import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WatchTimer } from './watch-timer.ts';
import type { TimedAttempt } from './watch-timer.ts';

/** An attempt whose limit the test moves, recording when it expired. */
function attempt(limitAt: number, expired: string[], name: string): TimedAttempt & { limitAt: number } {
  return {
    limitAt,
    expire() {
      expired.push(`${name}@${String(Date.now())}`);
    },
  };
}

describe('WatchTimer (fake timers)', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 }));
  afterEach(() => void vi.useRealTimers());

  it('ends each attempt when its own limit passes, whatever order they came in, with one timer', () => {
    const timer = new WatchTimer();
    const expired: string[] = [];
    timer.add(attempt(300, expired, 'a'));
    timer.add(attempt(100, expired, 'b'));
    timer.add(attempt(200, expired, 'c'));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(99);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(201);
    expect(expired).toEqual(['b@100', 'c@200', 'a@300']);
    expect(timer.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('finds a limit that moved later when the timer fires, and ends the attempt only then', () => {
    const timer = new WatchTimer();
    const expired: string[] = [];
    const moving = attempt(100, expired, 'moving');
    timer.add(moving);
    vi.advanceTimersByTime(50);
    moving.limitAt = 400; // progress pushed the deadline
    vi.advanceTimersByTime(300);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(expired).toEqual(['moving@400']);
  });

  it('never ends an attempt deleted before its limit', () => {
    const timer = new WatchTimer();
    const expired: string[] = [];
    const answered = attempt(100, expired, 'answered');
    const running = attempt(500, expired, 'running');
    timer.add(answered);
    timer.add(running);
    timer.delete(answered);
    vi.advanceTimersByTime(200);
    expect(expired).toEqual([]);
    timer.delete(running);
    vi.advanceTimersByTime(1000);
    expect(expired).toEqual([]);
    expect(timer.size).toBe(0);
  });
});

describe('WatchTimer (real timers)', () => {
  const timeouts = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  it('keeps the process alive only while an attempt is watched, with one timer for calls one after the other', () => {
    const timer = new WatchTimer();
    const before = timeouts();
    const first = attempt(Date.now() + 60_000, [], 'first');
    timer.add(first);
    expect(timeouts()).toBe(before + 1);
    timer.delete(first);
    expect(timeouts()).toBe(before);
    const second = attempt(Date.now() + 60_000, [], 'second');
    timer.add(second);
    expect(timeouts()).toBe(before + 1);
    timer.delete(second);
    expect(timeouts()).toBe(before);
  });
});
