import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep } from './abortable-sleep.ts';

describe('sleep (fake timers)', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => void vi.useRealTimers());

  it('resolves true once the whole wait has passed, not before', async () => {
    let settled: boolean | undefined;
    void sleep(1000).then((elapsed) => (settled = elapsed));
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });

  it('resolves false as soon as the signal aborts, and leaves no timer behind', async () => {
    const controller = new AbortController();
    let settled: boolean | undefined;
    void sleep(60_000, controller.signal).then((elapsed) => (settled = elapsed));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves false at once for a signal that has already aborted', async () => {
    await expect(sleep(60_000, AbortSignal.abort())).resolves.toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
