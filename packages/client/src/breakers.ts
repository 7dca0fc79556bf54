/**
 * Circuit breakers per tool of one server (cockatiel `ConsecutiveBreaker`), counting only faults that say the
 * server or tool is sick: `transient`/`internal` tool failures, transport faults, timeouts and JSON-RPC internal
 * errors — never validation, not-found, conflict, permission, rate-limit or business failures, nor cancellations.
 *
 * @packageDocumentation
 */
import { CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen } from 'cockatiel';
import type { CircuitBreakerPolicy } from 'cockatiel';
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
export type BreakerState = 'closed' | 'open' | 'half_open' | 'isolated';

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

const STATE_NAMES: Record<CircuitState, BreakerState> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half_open',
  [CircuitState.Isolated]: 'isolated',
};

/** Lazily creates one breaker per tool and forwards its break / half-open / reset events. */
export class BreakerRegistry {
  /** Milliseconds an open breaker waits before letting a trial call through. */
  readonly halfOpenAfterMs: number;
  readonly #server: string;
  readonly #threshold: number;
  readonly #events: PolicyEvents;
  readonly #breakers = new Map<string, CircuitBreakerPolicy>();

  constructor(server: string, options: BreakerOptions, events: PolicyEvents) {
    this.#server = server;
    this.halfOpenAfterMs = options.halfOpenAfterMs ?? 10_000;
    this.#threshold = options.threshold ?? 5;
    this.#events = events;
  }

  /** The breaker of `tool`. */
  get(tool: string): CircuitBreakerPolicy {
    let policy = this.#breakers.get(tool);
    if (!policy) {
      policy = circuitBreaker(handleWhen(isBreakerFault), {
        halfOpenAfter: this.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(this.#threshold),
      });
      const event = { server: this.#server, tool };
      policy.onBreak(() => this.#events.emit('break', event));
      policy.onHalfOpen(() => this.#events.emit('half_open', event));
      policy.onReset(() => this.#events.emit('reset', event));
      this.#breakers.set(tool, policy);
    }
    return policy;
  }

  /** The state of the breaker of `tool` (`closed` when it has none yet). */
  state(tool: string): BreakerState {
    const policy = this.#breakers.get(tool);
    return policy ? STATE_NAMES[policy.state] : 'closed';
  }
}
