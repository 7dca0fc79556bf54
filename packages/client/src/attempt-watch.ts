/**
 * What watches one attempt of a call: its `AbortSignal`, the one timer that enforces the call's deadline and
 * hard maximum, and the caller's abort; and the pool that lends the attempts their `AbortController`s.
 *
 * @packageDocumentation
 */
import { getEventListeners } from 'node:events';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { AbortCause } from './classify.ts';
import type { Deadline } from './deadline.ts';

/**
 * Reusable `AbortController`s for the attempts of one client. Creating an `AbortSignal` costs several
 * microseconds on Node 20 (a tenth of a whole call on stdio), and most attempts end without an abort; such a
 * controller goes back here when nothing listens on its signal any more, and the next attempt takes it.
 */
export class ControllerPool {
  readonly #idle: AbortController[] = [];

  /** An unaborted controller whose signal has no listener. */
  take(): AbortController {
    return this.#idle.pop() ?? new AbortController();
  }

  /** Returns `controller` for reuse, unless it was aborted or something still listens on its signal. */
  give(controller: AbortController): void {
    if (
      controller.signal.aborted ||
      this.#idle.length >= MAX_IDLE_CONTROLLERS ||
      getEventListeners(controller.signal, 'abort').length > 0
    )
      return;
    this.#idle.push(controller);
  }
}

const MAX_IDLE_CONTROLLERS = 32;

/**
 * The limits of one attempt: its own `AbortSignal`, aborted with an `SdkError` reason (so the SDK sends a
 * cancellation and does not confuse it with the caller's abort) when the deadline or the hard maximum passes,
 * or when the caller aborts. One timer covers both limits: the deadline never passes the hard maximum (progress
 * extends it at most to there), so the timer set for the deadline fires at the hard maximum at the latest, and
 * then says which limit passed. It is its own listener on the caller's signal (no closure per attempt), and
 * after {@link end} nothing it did is left behind: timer cleared, listener removed, controller given back.
 */
export class AttemptWatch {
  /** The attempt's signal: hand it to every request of the attempt. */
  readonly signal: AbortSignal;
  readonly #controller: AbortController;
  readonly #deadline: Deadline;
  readonly #caller: AbortSignal | undefined;
  readonly #pool: ControllerPool | undefined;
  #cause: AbortCause;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #reject: ((reason: unknown) => void) | undefined;
  #ended = false;

  /** Starts watching; `pool` lends the controller (none: a fresh one). */
  constructor(deadline: Deadline, caller: AbortSignal | undefined, pool?: ControllerPool) {
    this.#controller = pool ? pool.take() : new AbortController();
    this.signal = this.#controller.signal;
    this.#deadline = deadline;
    this.#caller = caller;
    this.#pool = pool;
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

  /** Progress arrived: pushes the deadline (never past the hard maximum) and re-arms the timer. */
  progress(): void {
    if (this.#ended || this.#cause !== undefined) return;
    this.#deadline.extend();
    clearTimeout(this.#timer);
    this.#timer = setTimeout(AttemptWatch.#expire, this.#deadline.remaining(), this);
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

  /** Stops watching: clears the timer and the caller listener and gives the controller back. Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#reject = undefined;
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this);
    this.#pool?.give(this.#controller);
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
