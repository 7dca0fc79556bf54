/**
 * The deadline of a call: one budget shared by all its attempts, extended by progress notifications up to a
 * hard maximum; one timer per attempt covers both. When either passes, the attempt's request is aborted on the
 * wire.
 *
 * @packageDocumentation
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { AbortCause } from './classify.ts';

/** Deadline settings of a call. */
export interface DeadlineOptions {
  /** Milliseconds without an answer or progress before the call times out. */
  readonly timeoutMs: number;
  /** Hard maximum from the start of the call, however much progress arrives (at least `timeoutMs`). */
  readonly maxTimeoutMs: number;
}

/** The moving deadline of one call. */
export class Deadline {
  readonly startedAt: number;
  readonly timeoutMs: number;
  /** The hard maximum in milliseconds from the start (never below `timeoutMs`). */
  readonly maxTimeoutMs: number;
  readonly hardAt: number;
  #at: number;

  constructor(options: DeadlineOptions, now = Date.now()) {
    this.startedAt = now;
    this.timeoutMs = options.timeoutMs;
    this.maxTimeoutMs = Math.max(options.timeoutMs, options.maxTimeoutMs);
    this.hardAt = now + this.maxTimeoutMs;
    this.#at = now + options.timeoutMs;
  }

  /** Epoch ms at which the call times out unless progress arrives. */
  get at(): number {
    return this.#at;
  }

  /** Pushes the deadline to `now + timeoutMs`, never past the hard maximum. */
  extend(now = Date.now()): void {
    this.#at = Math.min(Math.max(this.#at, now + this.timeoutMs), this.hardAt);
  }

  /** Milliseconds left before the current deadline. */
  remaining(now = Date.now()): number {
    return Math.max(0, this.#at - now);
  }
}

/** What one attempt under a deadline produced. */
export type DeadlineOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: unknown; readonly abortCause: AbortCause };

/**
 * Runs one attempt under `deadline` and the caller's `signal`. The attempt gets its own `AbortSignal`, aborted
 * with an `SdkError` reason (so the SDK sends a cancellation and does not confuse it with the caller's abort)
 * when the deadline or the hard maximum passes, or when the caller aborts.
 */
export async function runUnderDeadline<T>(
  deadline: Deadline,
  signal: AbortSignal | undefined,
  attempt: (signal: AbortSignal, onProgress: () => void) => Promise<T>,
): Promise<DeadlineOutcome<T>> {
  const controller = new AbortController();
  let cause: AbortCause;
  let rejectAborted: ((reason: unknown) => void) | undefined;
  const abort = (why: Exclude<AbortCause, undefined>, message: string): void => {
    if (controller.signal.aborted) return;
    cause = why;
    controller.abort(new SdkError(SdkErrorCode.RequestTimeout, message));
    rejectAborted?.(controller.signal.reason);
  };
  const onUserAbort = (): void => abort('user', 'Cancelled by the caller.');
  if (signal?.aborted) onUserAbort();
  signal?.addEventListener('abort', onUserAbort, { once: true });
  // One timer: the deadline never passes the hard maximum (progress extends it at most to there), so the timer
  // set for the deadline fires at the hard maximum at the latest, and then says which limit passed.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expire = (): void => {
    const capped = deadline.at >= deadline.hardAt && deadline.at > deadline.startedAt + deadline.timeoutMs;
    if (capped) abort('hard_maximum', 'Recourse hard maximum passed.');
    else abort('deadline', 'Recourse deadline passed.');
  };
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(expire, deadline.remaining());
  };
  arm();
  const onProgress = (): void => {
    if (controller.signal.aborted) return;
    deadline.extend();
    arm();
  };
  try {
    if (controller.signal.aborted) return { ok: false, error: controller.signal.reason, abortCause: cause };
    const aborted = new Promise<never>((_, reject) => {
      rejectAborted = reject;
    });
    const running = attempt(controller.signal, onProgress);
    running.catch(() => undefined);
    const value = await Promise.race([running, aborted]);
    if (cause !== undefined) return { ok: false, error: controller.signal.reason, abortCause: cause };
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error, abortCause: cause };
  } finally {
    rejectAborted = undefined;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onUserAbort);
  }
}
