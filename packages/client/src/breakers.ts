/**
 * Circuit breakers per tool of one server, counting only faults that say the server or tool is sick:
 * `transient`/`internal` tool failures, transport faults, timeouts and JSON-RPC internal errors — never
 * validation, not-found, conflict, permission, rate-limit or business failures, nor cancellations.
 *
 * A breaker is consulted without any asynchronous step: {@link ToolBreaker.admit} before the call and
 * {@link ToolBreaker.settle} with its outcome, so a call through a closed breaker costs a comparison and a
 * counter.
 *
 * @packageDocumentation
 */
import { isRecourseCallError } from './errors.ts';
import type { PolicyEvents } from './policy-events.ts';

/** Breaker settings. */
export interface BreakerOptions {
  /** Consecutive counted failures that open the breaker (default 5). */
  readonly threshold?: number;
  /** Milliseconds an open breaker waits before letting a trial call through (default 10 000). */
  readonly halfOpenAfterMs?: number;
}

/** The state of one breaker. */
export type BreakerState = 'closed' | 'open' | 'half_open';

/**
 * What {@link ToolBreaker.admit} decided: `call` (closed: go), `trial` (the one call let through to see whether
 * the tool recovered), `open` (refused: the breaker is open), `testing` (refused: a trial call is running).
 */
export type Admission = 'call' | 'trial' | 'open' | 'testing';

/** Whether `error` counts against a breaker. */
export function isBreakerFault(error: unknown): boolean {
  if (!isRecourseCallError(error)) return false;
  switch (error.kind) {
    case 'tool':
      return error.category === 'transient' || error.category === 'internal';
    case 'protocol':
      return error.rpcCode === -32603 || (error.httpStatus !== undefined && error.httpStatus >= 500);
    case 'local':
      return error.reason === 'transport' || error.reason === 'timeout' || error.reason === 'ambiguous';
  }
}

/**
 * The breaker of one tool. Closed, it counts consecutive faults (a success starts the count again; a failure
 * that is not a fault leaves it alone) and opens at the threshold. Open, it refuses every call until
 * `halfOpenAfterMs` have passed; the next call is then the trial, and every other call is refused while it
 * runs. The trial's fault opens the breaker again; its success, or a failure that is not a fault, closes it.
 */
export class ToolBreaker {
  #state: BreakerState = 'closed';
  #faults = 0;
  #openedAt = 0;
  readonly #threshold: number;
  readonly #halfOpenAfterMs: number;
  readonly #emit: (name: 'break' | 'half_open' | 'reset') => void;

  constructor(
    threshold: number,
    halfOpenAfterMs: number,
    emit: (name: 'break' | 'half_open' | 'reset') => void,
  ) {
    this.#threshold = threshold;
    this.#halfOpenAfterMs = halfOpenAfterMs;
    this.#emit = emit;
  }

  get state(): BreakerState {
    return this.#state;
  }

  /** Decides whether a call may go now; a call admitted as `trial` turns the breaker half-open. */
  admit(): Admission {
    if (this.#state === 'closed') return 'call';
    if (this.#state === 'half_open') return 'testing';
    if (Date.now() - this.#openedAt < this.#halfOpenAfterMs) return 'open';
    this.#state = 'half_open';
    this.#emit('half_open');
    return 'trial';
  }

  /**
   * Records how an admitted call ended: `failure` is what it threw, `undefined` for a success. A call admitted
   * while closed that ends after the breaker opened does not count.
   */
  settle(admission: Admission, failure?: unknown): void {
    const fault = failure !== undefined && isBreakerFault(failure);
    if (admission === 'trial') {
      if (fault) this.#open();
      else {
        this.#state = 'closed';
        this.#faults = 0;
        this.#emit('reset');
      }
    } else if (admission === 'call' && this.#state === 'closed') {
      if (failure === undefined) this.#faults = 0;
      else if (fault && ++this.#faults >= this.#threshold) this.#open();
    }
  }

  #open(): void {
    this.#state = 'open';
    this.#openedAt = Date.now();
    this.#emit('break');
  }
}

/** Lazily creates one breaker per tool and forwards its break / half-open / reset events. */
export class BreakerRegistry {
  /** Milliseconds an open breaker waits before letting a trial call through. */
  readonly halfOpenAfterMs: number;
  readonly #server: string;
  readonly #threshold: number;
  readonly #events: PolicyEvents;
  readonly #breakers = new Map<string, ToolBreaker>();

  constructor(server: string, options: BreakerOptions, events: PolicyEvents) {
    this.#server = server;
    this.halfOpenAfterMs = options.halfOpenAfterMs ?? 10_000;
    this.#threshold = options.threshold ?? 5;
    this.#events = events;
  }

  /** The breaker of `tool`. */
  get(tool: string): ToolBreaker {
    let breaker = this.#breakers.get(tool);
    if (breaker === undefined) {
      const event = { server: this.#server, tool };
      breaker = new ToolBreaker(this.#threshold, this.halfOpenAfterMs, (name) =>
        this.#events.emit(name, event),
      );
      this.#breakers.set(tool, breaker);
    }
    return breaker;
  }

  /** The state of the breaker of `tool` (`closed` when it has none yet). */
  state(tool: string): BreakerState {
    return this.#breakers.get(tool)?.state ?? 'closed';
  }
}
