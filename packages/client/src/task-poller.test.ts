import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollTask } from './task-poller.ts';
import type { TaskSnapshot, TaskStatus } from './task-poller.ts';

/** A fake task server: answers a scripted sequence of statuses (or errors) and records when it was asked. */
function fakeTasks(script: (TaskStatus | Error)[], extra: Partial<TaskSnapshot> = {}) {
  const asked: number[] = [];
  const cancelled: string[] = [];
  let i = 0;
  return {
    asked,
    cancelled,
    get: (taskId: string): Promise<TaskSnapshot> => {
      asked.push(Date.now());
      const step = script[Math.min(i++, script.length - 1)] ?? 'working';
      if (step instanceof Error) return Promise.reject(step);
      return Promise.resolve({
        taskId,
        status: step,
        ...extra,
        ...(step === 'completed' ? { result: { content: [] } } : {}),
      });
    },
    cancel: (taskId: string): Promise<void> => {
      cancelled.push(taskId);
      return Promise.resolve();
    },
  };
}

function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - (times[i] ?? 0));
}

describe('pollTask (fake timers)', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => void vi.useRealTimers());

  it('polls until the task completes, never faster than pollIntervalMs, backing off with jitter', async () => {
    const tasks = fakeTasks(['working', 'working', 'working', 'working', 'completed'], {
      pollIntervalMs: 1000,
    });
    const done = pollTask('t-1', { ...tasks, maxIntervalMs: 4000 });
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(done).resolves.toMatchObject({ status: 'completed', result: { content: [] } });
    expect(tasks.asked).toHaveLength(5);
    const waits = gaps(tasks.asked);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(1000);
      expect(wait).toBeLessThanOrEqual(4000);
    }
    expect(waits.at(-1)).toBeGreaterThan(waits[0] ?? 0);
    expect(tasks.cancelled).toEqual([]);
  });

  it('returns an input_required snapshot to the caller, and a failed task as it is', async () => {
    const waiting = fakeTasks(['working', 'input_required']);
    const a = pollTask('t-2', { ...waiting, random: () => 0.5 });
    await vi.advanceTimersByTimeAsync(5000);
    await expect(a).resolves.toMatchObject({ status: 'input_required' });
    const failing = fakeTasks(['failed']);
    await expect(pollTask('t-3', failing)).resolves.toMatchObject({ status: 'failed' });
  });

  it('survives failed polls up to the cap, then gives up and cancels the task', async () => {
    const recovering = fakeTasks([new Error('503'), new Error('503'), 'completed']);
    const ok = pollTask('t-4', { ...recovering, maxFailedPolls: 3 });
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(ok).resolves.toMatchObject({ status: 'completed' });

    const down = fakeTasks([new Error('503')]);
    const gaveUp = pollTask('t-5', { ...down, maxFailedPolls: 3 });
    gaveUp.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(gaveUp).rejects.toMatchObject({
      code: 'TASK_POLL_FAILED',
      reason: 'polls_failed',
      polls: 3,
      cancelSent: true,
    });
    expect(down.cancelled).toEqual(['t-5']);
  });

  it('stops at its maximum lifetime and cancels what it abandons', async () => {
    const slow = fakeTasks(['working'], { pollIntervalMs: 500 });
    const polling = pollTask('t-6', { ...slow, maxLifetimeMs: 3000 });
    polling.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(5000);
    await expect(polling).rejects.toMatchObject({ reason: 'lifetime', cancelSent: true });
    expect(slow.cancelled).toEqual(['t-6']);
    expect(Date.now() - (slow.asked[0] ?? 0)).toBeLessThanOrEqual(5000);
  });

  it('gives up on an unknown task without cancelling it, and cancels on the caller abort', async () => {
    const unknown = { ...fakeTasks([Object.assign(new Error('Unknown task'), { code: -32602 })]) };
    await expect(pollTask('t-7', unknown)).rejects.toMatchObject({ reason: 'not_found', cancelSent: false });
    expect(unknown.cancelled).toEqual([]);

    const controller = new AbortController();
    const running = fakeTasks(['working']);
    const polling = pollTask('t-8', { ...running, signal: controller.signal });
    polling.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(600);
    controller.abort();
    await expect(polling).rejects.toMatchObject({ reason: 'cancelled', cancelSent: true });
    expect(running.cancelled).toEqual(['t-8']);
  });

  it('stops polling a task that outlived its TTL', async () => {
    const tasks = fakeTasks(['working'], {
      createdAt: new Date().toISOString(),
      ttlMs: 2000,
      pollIntervalMs: 500,
    });
    const polling = pollTask('t-9', tasks);
    polling.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(6000);
    await expect(polling).rejects.toMatchObject({ reason: 'expired', cancelSent: true });
    expect(tasks.asked.length).toBeLessThanOrEqual(5);
  });

  it('asks at most once per suggested interval: a 30 s task with pollIntervalMs 1000 takes at most 31 polls', async () => {
    const started = Date.now();
    const asked: number[] = [];
    const done = pollTask('t-30s', {
      get: (taskId) => {
        asked.push(Date.now());
        const finished = Date.now() - started >= 30_000;
        return Promise.resolve({
          taskId,
          status: finished ? 'completed' : 'working',
          pollIntervalMs: 1000,
          ...(finished ? { result: { content: [] } } : {}),
        });
      },
    });
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(done).resolves.toMatchObject({ status: 'completed' });
    expect(asked.length).toBeLessThanOrEqual(31);
    expect(asked.length).toBeGreaterThanOrEqual(4);
    for (const wait of gaps(asked)) expect(wait).toBeGreaterThanOrEqual(1000);
    // Backed off up to the 10 s cap, never beyond it: the answer is seen at most one cap after the task ended.
    expect((asked.at(-1) ?? 0) - started).toBeLessThanOrEqual(30_000 + 10_000);
  });

  it('survives 3 failed polls in a row with the default cap, and gives up at a configured cap of 3', async () => {
    const flaky = fakeTasks([new Error('503'), new Error('503'), new Error('503'), 'completed']);
    const survived = pollTask('t-flaky', flaky);
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(survived).resolves.toMatchObject({ status: 'completed' });
    expect(flaky.asked).toHaveLength(4);
    expect(flaky.cancelled).toEqual([]);

    const capped = fakeTasks([new Error('503'), new Error('503'), new Error('503'), 'completed']);
    const gaveUp = pollTask('t-capped', { ...capped, maxFailedPolls: 3 });
    gaveUp.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(gaveUp).rejects.toMatchObject({ reason: 'polls_failed', polls: 3, cancelSent: true });
    expect(capped.cancelled).toEqual(['t-capped']);
  });

  it('resumes a persisted task id where another poller left it', async () => {
    const tasks = fakeTasks(['completed']);
    await expect(pollTask('persisted-id', tasks)).resolves.toMatchObject({
      taskId: 'persisted-id',
      status: 'completed',
    });
  });
});
