/**
 * The deadline of a call: one budget shared by all its attempts, extended by progress notifications up to a
 * hard maximum. `AttemptWatch` enforces it on each attempt.
 *
 * @packageDocumentation
 */

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

  /** Whether progress can move the deadline at all (the hard maximum lies past `timeoutMs`). */
  get extendable(): boolean {
    return this.maxTimeoutMs > this.timeoutMs;
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
