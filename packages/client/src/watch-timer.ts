/**
 * One timer for the limits of every running attempt of a connection. A Node timer per attempt (created, linked
 * into Node's timer lists, cleared again when the answer comes, as it almost always does) cost more per call than
 * keeping the running attempts in a set: the one timer is armed for the earliest limit among them, re-armed only
 * when an attempt arrives whose limit is earlier still, and when it fires it ends the attempts whose limit has
 * passed and re-arms for the earliest of the rest. A limit that moved later (progress) is found then. With no
 * attempt left the timer stays armed but no longer keeps the process alive (`unref`), so that calls made one
 * after the other do not create a timer each; it keeps the process alive again while an attempt runs.
 *
 * @packageDocumentation
 */

/** What the timer watches: an attempt with a limit (epoch ms) that only ever moves later. */
export interface TimedAttempt {
  /** Epoch milliseconds at which the attempt's limit passes. */
  readonly limitAt: number;
  /** The limit passed: end the attempt. Called once; the attempt is no longer watched by then. */
  expire(): void;
}

/** See the file comment. */
export class WatchTimer {
  readonly #attempts = new Set<TimedAttempt>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The epoch ms the timer is armed for (`Infinity`: not armed). */
  #armedFor = Infinity;

  /** The number of attempts watched. */
  get size(): number {
    return this.#attempts.size;
  }

  /** Watches `attempt` until {@link delete} or until its limit passes. */
  add(attempt: TimedAttempt): void {
    const attempts = this.#attempts;
    attempts.add(attempt);
    if (attempt.limitAt < this.#armedFor) this.#arm(attempt.limitAt);
    else if (attempts.size === 1) this.#timer?.ref();
  }

  /** Stops watching `attempt`; with nothing left to watch, the timer no longer keeps the process alive. */
  delete(attempt: TimedAttempt): void {
    const attempts = this.#attempts;
    if (attempts.delete(attempt) && attempts.size === 0) this.#timer?.unref();
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#armedFor = at;
    this.#timer = setTimeout(WatchTimer.#fire, Math.max(0, at - Date.now()), this);
    if (this.#attempts.size === 0) this.#timer.unref();
  }

  static #fire(timer: WatchTimer): void {
    timer.#timer = undefined;
    timer.#armedFor = Infinity;
    const now = Date.now();
    const passed: TimedAttempt[] = [];
    let next = Infinity;
    for (const attempt of timer.#attempts) {
      const at = attempt.limitAt;
      if (at <= now) passed.push(attempt);
      else if (at < next) next = at;
    }
    for (const attempt of passed) timer.#attempts.delete(attempt);
    if (next !== Infinity) timer.#arm(next);
    for (const attempt of passed) attempt.expire();
  }
}
