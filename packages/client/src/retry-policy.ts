/**
 * Retry with exponential backoff and jitter, honouring the server's `retryAfterMs` / `Retry-After`,
 * bounded by attempts and by the call's deadline. A small core in cockatiel's shape (cockatiel's
 * backoff supplies the delays); it exists because cockatiel's retry cannot read a wait from each failure.
 *
 * @packageDocumentation
 */
import { ExponentialBackoff } from 'cockatiel';
import type { IBackoff } from 'cockatiel';
import { sleep } from './abortable-sleep.ts';
import type { Deadline } from './deadline.ts';
import type { RecourseCallError } from './errors.ts';

/** Retry settings. */
export interface RetryOptions {
  /** Total attempts, the first included (default 3; 1 disables retries). */
  readonly maxAttempts?: number;
  /** First backoff delay in ms (default 100). */
  readonly initialDelayMs?: number;
  /** Largest backoff delay in ms (default 5000); a server's `retryAfterMs` may exceed it. */
  readonly maxDelayMs?: number;
}

/** What a retry listener learns. */
export interface RetryInfo {
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: RecourseCallError;
}

/**
 * Why the retry loop stopped on a failure: the failure is not worth repeating, repeating is not safe, the
 * attempts ran out, the next wait would end past the deadline, or the caller aborted during a wait.
 */
export type GiveUpReason = 'not_retryable' | 'unsafe' | 'attempts_exhausted' | 'deadline' | 'cancelled';

/** Hooks and decisions of one retried call. */
export interface RetryRun<T> {
  readonly options: RetryOptions;
  readonly deadline: Deadline;
  readonly signal: AbortSignal | undefined;
  /** Runs attempt `n`; throws a {@link RecourseCallError} on failure. */
  attempt(n: number, waitBeforeMs: number): Promise<T>;
  /** Whether repeating after `error` may help and is safe; otherwise returns why not. */
  verdict(
    error: RecourseCallError,
  ): true | Exclude<GiveUpReason, 'attempts_exhausted' | 'deadline' | 'cancelled'>;
  onRetry?(info: RetryInfo): void;
  onGiveUp?(error: RecourseCallError, reason: GiveUpReason, attempts: number): void;
}

function serverWait(error: RecourseCallError): number | undefined {
  const value = (error as { retryAfterMs?: unknown }).retryAfterMs;
  return typeof value === 'number' && value >= 0 ? value : undefined;
}

/**
 * Goes on from a failed first attempt (`error`, which the caller made itself, so that a call that succeeds at
 * once pays for none of the retry machinery): runs `run.attempt` until it succeeds or must stop. The delay before
 * a retry is the larger of the backoff (exponential, decorrelated jitter) and the server's requested wait; a
 * retry whose wait would end past the deadline is not made. Rejects with the last failure.
 */
export async function retryAfterFailure<T>(run: RetryRun<T>, error: RecourseCallError): Promise<T> {
  const maxAttempts = Math.max(1, run.options.maxAttempts ?? 3);
  // Made on the first failure: a call that succeeds at once needs no backoff.
  let backoff: IBackoff<unknown> | undefined;
  let failure = error;
  for (let n = 1; ; n++) {
    const verdict = run.verdict(failure);
    if (verdict !== true) {
      run.onGiveUp?.(failure, verdict, n);
      throw failure;
    }
    if (n >= maxAttempts) {
      run.onGiveUp?.(failure, 'attempts_exhausted', n);
      throw failure;
    }
    backoff ??= new ExponentialBackoff({
      initialDelay: run.options.initialDelayMs ?? 100,
      maxDelay: run.options.maxDelayMs ?? 5000,
    }).next();
    const delayMs = Math.round(Math.max(backoff.duration, serverWait(failure) ?? 0));
    backoff = backoff.next(undefined);
    if (Date.now() + delayMs >= run.deadline.at) {
      run.onGiveUp?.(failure, 'deadline', n);
      throw failure;
    }
    run.onRetry?.({ attempt: n, delayMs, error: failure });
    if (!(await sleep(delayMs, run.signal))) {
      run.onGiveUp?.(failure, 'cancelled', n);
      throw failure;
    }
    try {
      return await run.attempt(n + 1, delayMs);
    } catch (thrown) {
      failure = thrown as RecourseCallError;
    }
  }
}
