/**
 * What watches one attempt of a call: its `AbortSignal`, the call's deadline and hard maximum (enforced by the
 * connection's {@link WatchTimer}), the caller's abort, and the attempt's progress.
 *
 * @packageDocumentation
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { ProgressNotificationParams } from '@modelcontextprotocol/client';
import type { AbortCause } from './classify.ts';
import type { Deadline } from './deadline.ts';
import { LightAbortController } from './light-abort.ts';
import type { CallProgress, ProgressRoute } from './progress-routes.ts';
import type { TimedAttempt, WatchTimer } from './watch-timer.ts';

/**
 * The limits of one attempt: its own `AbortSignal`, aborted with an `SdkError` reason (so the SDK sends a
 * cancellation and does not confuse it with the caller's abort) when the deadline or the hard maximum passes,
 * or when the caller aborts. One limit covers both: the deadline never passes the hard maximum (progress extends
 * it at most to there), so the deadline passes at the hard maximum at the latest, and the watch then says which
 * limit passed. It is its own listener on the caller's signal (no closure per attempt), and after {@link end}
 * nothing it did is left behind: no longer timed, listener removed. It is also the attempt's progress route:
 * progress pushes the deadline and reaches the caller's `onProgress`.
 */
export class AttemptWatch implements ProgressRoute, TimedAttempt {
  /** The attempt's signal: hand it to every request of the attempt. */
  readonly signal: AbortSignal;
  readonly #controller: AbortController;
  readonly #deadline: Deadline;
  readonly #timer: WatchTimer;
  readonly #caller: AbortSignal | undefined;
  readonly #onProgress: ((progress: CallProgress) => void) | undefined;
  #cause: AbortCause;
  #reject: ((reason: unknown) => void) | undefined;
  #ended = false;

  /**
   * Starts watching, timed by `timer` (the connection's). `light`: the attempt's requests never reach `fetch`,
   * so its signal can be a {@link LightAbortController}'s, which costs the SDK less per request than a native
   * one. `onProgress`: the caller's progress callback.
   */
  constructor(
    timer: WatchTimer,
    deadline: Deadline,
    caller: AbortSignal | undefined,
    light = false,
    onProgress?: (progress: CallProgress) => void,
  ) {
    this.#controller = light ? new LightAbortController() : new AbortController();
    this.signal = this.#controller.signal;
    this.#deadline = deadline;
    this.#timer = timer;
    this.#caller = caller;
    this.#onProgress = onProgress;
    if (caller?.aborted) this.#abort('user', 'Cancelled by the caller.');
    else {
      caller?.addEventListener('abort', this, { once: true });
      timer.add(this);
    }
  }

  /** Epoch ms at which the attempt's limit (its deadline, never past the hard maximum) passes. */
  get limitAt(): number {
    return this.#deadline.at;
  }

  /** Why this client aborted the attempt, if it did. */
  get cause(): AbortCause {
    return this.#cause;
  }

  /** The caller's signal aborted (this object is the listener). */
  handleEvent(): void {
    this.#abort('user', 'Cancelled by the caller.');
  }

  /**
   * Whether progress would do anything for this attempt: reach the caller's `onProgress`, or move a deadline whose
   * hard maximum lies past it. Only then does the attempt's request ask the server for progress.
   */
  get usesProgress(): boolean {
    return this.#onProgress !== undefined || this.#deadline.extendable;
  }

  /**
   * Progress arrived: pushes the deadline (never past the hard maximum) while the attempt runs, and passes the
   * progress on to the caller.
   */
  progress(params: ProgressNotificationParams): void {
    if (!this.#ended && this.#cause === undefined) this.#deadline.extend();
    this.#onProgress?.({
      progress: params.progress,
      ...(params.total === undefined ? {} : { total: params.total }),
      ...(params.message === undefined ? {} : { message: params.message }),
    });
  }

  /** Settles like `running`, or rejects with the abort reason as soon as the attempt is aborted. */
  watch<T>(running: Promise<T>): Promise<T> {
    if (this.#cause !== undefined) {
      running.catch(() => undefined);
      return Promise.reject(this.signal.reason as Error);
    }
    return new Promise<T>((resolve, reject) => {
      this.#reject = reject;
      running.then(resolve, reject);
    });
  }

  /** Stops watching: no longer timed, caller listener removed. Idempotent; the signal is never aborted after it. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#reject = undefined;
    this.#timer.delete(this);
    this.#caller?.removeEventListener('abort', this);
  }

  /** The limit passed (the timer calls this): aborts with the deadline or the hard maximum as the cause. */
  expire(): void {
    const deadline = this.#deadline;
    const capped = deadline.at >= deadline.hardAt && deadline.at > deadline.startedAt + deadline.timeoutMs;
    if (capped) this.#abort('hard_maximum', 'Recourse hard maximum passed.');
    else this.#abort('deadline', 'Recourse deadline passed.');
  }

  #abort(why: Exclude<AbortCause, undefined>, message: string): void {
    if (this.#ended || this.#cause !== undefined) return;
    this.#cause = why;
    this.#timer.delete(this);
    this.#controller.abort(new SdkError(SdkErrorCode.RequestTimeout, message));
    this.#reject?.(this.signal.reason);
  }
}
