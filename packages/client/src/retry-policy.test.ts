import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRecourseClient } from './index.ts';
import type { RecourseClient } from './index.ts';
import { createFaultState, inMemoryFaultTarget } from './testing/index.ts';
import type { FaultServerState } from './testing/index.ts';
import { Deadline } from './deadline.ts';
import { LocalCallError } from './errors.ts';
import { retryAfterFailure } from './retry-policy.ts';

function executions(state: FaultServerState, tool: string): number {
  return state.executions.filter((e) => e.tool === tool).length;
}

describe('retries through the client (fake timers)', () => {
  let state: FaultServerState;
  let client: RecourseClient;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    state = createFaultState();
    client = createRecourseClient({
      target: inMemoryFaultTarget(state),
      protocol: 'legacy',
      retry: { maxAttempts: 4, initialDelayMs: 10, maxDelayMs: 40 },
      timeoutMs: 60_000,
    });
  });
  afterEach(async () => {
    await client.close();
    vi.useRealTimers();
  });

  it('returns the success of a read-only tool after two transient failures, waiting retryAfterMs each time', async () => {
    state.script.push(
      'echo',
      { kind: 'tool_failure', category: 'transient', retryAfterMs: 1500 },
      { kind: 'tool_failure', category: 'transient', retryAfterMs: 1500 },
    );
    const retries: number[] = [];
    client.on('retry', (event) => retries.push(event.delayMs));
    const call = client.callTool('echo', { text: 'third time' });
    await vi.advanceTimersByTimeAsync(1499);
    expect(retries).toEqual([1500]);
    expect(state.script.pending('echo')).toBe(1); // the second attempt has not started yet
    await vi.advanceTimersByTimeAsync(1);
    expect(state.script.pending('echo')).toBe(0);
    await vi.advanceTimersByTimeAsync(1500);
    const success = await call;
    expect(success.result.content).toEqual([{ type: 'text', text: 'third time' }]);
    expect(success.attempts.map((a) => a.outcome)).toEqual(['tool_failure', 'tool_failure', 'ok']);
    expect(success.attempts.map((a) => a.waitBeforeMs)).toEqual([0, 1500, 1500]);
    expect(success.attempts[0]?.category).toBe('transient');
    expect(retries).toEqual([1500, 1500]);
    expect(executions(state, 'echo')).toBe(1);
  });

  it('does not repeat a validation failure, and says why it gave up', async () => {
    state.script.push('echo', { kind: 'tool_failure', category: 'validation' });
    const gaveUp: string[] = [];
    client.on('give_up', (event) => gaveUp.push(event.reason));
    const outcome = await client.tryCallTool('echo', { text: 'x' });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('CALL_TOOL_FAILED');
    expect(outcome.error.attempts).toHaveLength(1);
    expect(gaveUp).toEqual(['not_retryable']);
  });

  it('stops after maxAttempts and rejects with the last failure and every attempt', async () => {
    for (let i = 0; i < 6; i++) state.script.push('echo', { kind: 'tool_failure', category: 'transient' });
    const call = client.tryCallTool('echo', { text: 'x' });
    await vi.advanceTimersByTimeAsync(1000);
    const outcome = await call;
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.attempts).toHaveLength(4);
    expect(state.script.pending('echo')).toBe(2);
  });

  it('repeats a transient failure of an unsafe tool only when the server said nothing changed', async () => {
    state.script.push('record', { kind: 'tool_failure', category: 'transient', retryAfterMs: 100 });
    const call = client.callTool('record', { note: 'n' });
    await vi.advanceTimersByTimeAsync(200);
    const success = await call;
    expect(success.attempts.map((a) => a.outcome)).toEqual(['tool_failure', 'ok']);
    expect(executions(state, 'record')).toBe(1);
  });

  it('does not start a retry whose wait would end past the deadline', async () => {
    state.script.push('echo', { kind: 'tool_failure', category: 'rate_limit', retryAfterMs: 90_000 });
    const outcome = await client.tryCallTool('echo', { text: 'x' }, { timeoutMs: 5000 });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.attempts).toHaveLength(1);
    expect(state.script.pending('echo')).toBe(0);
  });
});

describe('retryAfterFailure', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => void vi.useRealTimers());

  const transient = (): LocalCallError<'transport'> =>
    new LocalCallError({
      server: 's',
      tool: 't',
      reason: 'transport',
      mayHaveReachedServer: false,
      message: 'down',
    });

  it('backs off exponentially with jitter, within the configured bounds', async () => {
    const delays: number[] = [];
    let n = 1; // the first attempt failed
    const run = retryAfterFailure(
      {
        options: { maxAttempts: 6, initialDelayMs: 100, maxDelayMs: 1000 },
        deadline: new Deadline({ timeoutMs: 60_000, maxTimeoutMs: 60_000 }),
        signal: undefined,
        attempt: () => (++n < 6 ? Promise.reject(transient()) : Promise.resolve('ok')),
        verdict: () => true,
        onRetry: (info) => delays.push(info.delayMs),
      },
      transient(),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(run).resolves.toBe('ok');
    expect(delays).toHaveLength(5);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(1000);
    }
    expect(new Set(delays).size).toBeGreaterThan(1);
  });

  it('stops waiting when the caller aborts during a backoff', async () => {
    const controller = new AbortController();
    const reasons: string[] = [];
    let n = 1; // the first attempt failed
    const run = retryAfterFailure(
      {
        options: { maxAttempts: 5, initialDelayMs: 1000, maxDelayMs: 1000 },
        deadline: new Deadline({ timeoutMs: 60_000, maxTimeoutMs: 60_000 }),
        signal: controller.signal,
        attempt: () => {
          n++;
          return Promise.reject(transient());
        },
        verdict: () => true,
        onGiveUp: (_error, reason) => reasons.push(reason),
      },
      transient(),
    );
    run.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'CALL_TRANSPORT' });
    expect(n).toBe(1);
    // the caller's abort is not a deadline: listeners must not count it as a timeout
    expect(reasons).toEqual(['cancelled']);
  });
});
