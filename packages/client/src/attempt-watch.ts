/**
 * What watches one attempt of a call: its `AbortSignal`, the one timer that enforces the call's deadline and
 * hard maximum, the caller's abort, and the attempt's progress.
 *
 * @packageDocumentation
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { ProgressNotificationParams } from '@modelcontextprotocol/client';
import type { AbortCause } from './classify.ts';
import type { Deadline } from './deadline.ts';
import { LightAbortController } from './light-abort.ts';
import type { CallProgress, ProgressRoute } from './progress-routes.ts';

/**
 * The limits of one attempt: its own `AbortSignal`, aborted with an `SdkError` reason (so the SDK sends a
 * cancellation and does not confuse it with the caller's abort) when the deadline or the hard maximum passes,
 * or when the caller aborts. One timer covers both limits: the deadline never passes the hard maximum (progress
 * extends it at most to there), so the timer set for the deadline fires at the hard maximum at the latest, and
 * then says which limit passed. It is its own listener on the caller's signal (no closure per attempt), and
 * after {@link end} nothing it did is left behind: timer cleared, listener removed. It is also the attempt's
 * progress route: progress pushes the deadline and reaches the caller's `onProgress`.
 */
export class AttemptWatch implements ProgressRoute {
  /** The attempt's signal: hand it to every request of the attempt. */
  readonly signal: AbortSignal;
  readonly #controller: AbortController;
  readonly #deadline: Deadline;
  readonly #caller: AbortSignal | undefined;
  readonly #onProgress: ((progress: CallProgress) => void) | undefined;
  #cause: AbortCause;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #reject: ((reason: unknown) => void) | undefined;
  #ended = false;

  /**
   * Starts watching. `light`: the attempt's requests never reach `fetch`, so its signal can be a
   * {@link LightAbortController}'s, which costs the SDK less per request than a native one. `onProgress`: the
   * caller's progress callback.
   */
  constructor(
    deadline: Deadline,
    caller: AbortSignal | undefined,
    light = false,
    onProgress?: (progress: CallProgress) => void,
  ) {
    this.#controller = light ? new LightAbortController() : new AbortController();
    this.signal = this.#controller.signal;
    this.#deadline = deadline;
    this.#caller = caller;
    this.#onProgress = onProgress;
    if (caller?.aborted) this.#abort('user', 'Cancelled by the caller.');
    else {
      caller?.addEventListener('abort', this, { once: true });
      this.#timer = setTimeout(AttemptWatch.#expire, deadline.remaining(), this);
    }
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
   * Progress arrived: pushes the deadline (never past the hard maximum) and re-arms the timer while the attempt
   * runs, and passes the progress on to the caller.
   */
  progress(params: ProgressNotificationParams): void {
    if (!this.#ended && this.#cause === undefined) {
      this.#deadline.extend();
      clearTimeout(this.#timer);
      this.#timer = setTimeout(AttemptWatch.#expire, this.#deadline.remaining(), this);
    }
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

  /** Stops watching: clears the timer and the caller listener. Idempotent; the signal is never aborted after it. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#reject = undefined;
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this);
  }

  static #expire(watch: AttemptWatch): void {
    const deadline = watch.#deadline;
    const capped = deadline.at >= deadline.hardAt && deadline.at > deadline.startedAt + deadline.timeoutMs;
    if (capped) watch.#abort('hard_maximum', 'Recourse hard maximum passed.');
    else watch.#abort('deadline', 'Recourse deadline passed.');
  }

  #abort(why: Exclude<AbortCause, undefined>, message: string): void {
    if (this.#ended || this.#cause !== undefined) return;
    this.#cause = why;
    clearTimeout(this.#timer);
    this.#controller.abort(new SdkError(SdkErrorCode.RequestTimeout, message));
    this.#reject?.(this.signal.reason);
  }
}
