/**
 * Graceful drain of an HTTP host: counts the requests being served, refuses new ones once draining began, and
 * tells when the last one finished.
 *
 * @packageDocumentation
 */
import { HOST_REFUSAL_CODES } from './refusal-codes.ts';
import { NOTHING_CHANGED, type HttpRefusal } from './http-refusal.ts';

/** Tracks requests in progress and the draining state of one host. */
export interface DrainGate {
  /** Whether draining began: new requests are refused and `/readyz` answers 503. */
  readonly draining: boolean;
  /** Requests being served right now. */
  readonly active: number;
  /** Counts one request until the returned function is called (calling it twice counts once). */
  enter(): () => void;
  /** Begins draining; idempotent. */
  begin(): void;
  /** Resolves `true` once no request is in progress, or `false` when `timeoutMs` passed first. */
  idle(timeoutMs: number): Promise<boolean>;
}

/** Creates a gate with no request in progress, not draining. */
export function createDrainGate(): DrainGate {
  let active = 0;
  let draining = false;
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const waiter of waiters) waiter();
    waiters.clear();
  };
  return {
    get draining() {
      return draining;
    },
    get active() {
      return active;
    },
    enter() {
      active += 1;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        active -= 1;
        if (active === 0) wake();
      };
    },
    begin() {
      draining = true;
    },
    idle(timeoutMs) {
      if (active === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          waiters.delete(done);
          resolve(false);
        }, timeoutMs);
        const done = (): void => {
          clearTimeout(timer);
          resolve(true);
        };
        waiters.add(done);
      });
    },
  };
}

/**
 * 503 (-31503) with `Retry-After` and `Connection: close` for a request that arrives while the host drains: the
 * instance is shutting down, nothing was done, the same request can go to another instance at once.
 */
export function drainingRefusal(retryAfterSeconds: number): HttpRefusal {
  return {
    status: 503,
    code: HOST_REFUSAL_CODES.Unavailable,
    reason: 'draining',
    headers: { 'retry-after': String(retryAfterSeconds), connection: 'close' },
    data: { reason: 'draining', retryAfterMs: retryAfterSeconds * 1000 },
    message:
      'This server instance is shutting down and takes no new requests. Send the same request again: behind a ' +
      `load balancer it reaches another instance at once, otherwise retry after ${String(retryAfterSeconds)} s. ` +
      NOTHING_CHANGED,
  };
}
