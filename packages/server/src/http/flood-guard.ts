/**
 * Flood protection, checked before anything else: per member for requests whose credential the host accepted,
 * per normalised client address (see {@link floodKey}) for everything else.
 *
 * @packageDocumentation
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { floodKey, type FloodSubject } from './flood-key.ts';
import { HOST_REFUSAL_CODES } from './refusal-codes.ts';
import { NOTHING_CHANGED, type HttpRefusal } from './http-refusal.ts';

/** How many requests one member, or one client address, may send per window. */
export interface FloodLimit {
  readonly requests: number;
  readonly perMs: number;
}

/** Default flood limit: 600 requests per 10 s per member or client address. */
export const DEFAULT_FLOOD_LIMIT: FloodLimit = { requests: 600, perMs: 10_000 };

/** Checks one request of a member or client address; resolves to a 429 refusal or `undefined` to go on. */
export type FloodGuard = (subject: FloodSubject) => Promise<HttpRefusal | undefined>;

/**
 * Builds a flood guard over an in-memory `rate-limiter-flexible` limiter (one process; the per-member
 * tool rate limit in the pipeline is the shared one). `false` builds a guard that lets everything pass.
 *
 * A refusal is HTTP 429 with `Retry-After` in whole seconds (at least 1) and code -31429
 * (`TooManyRequests`), carrying `data.retryAfterMs`.
 */
export function createFloodGuard(limit: FloodLimit | false = DEFAULT_FLOOD_LIMIT): FloodGuard {
  if (limit === false) return () => Promise.resolve(undefined);
  if (!(limit.requests >= 1) || !(limit.perMs > 0)) {
    throw new RangeError(
      `flood must be { requests >= 1, perMs > 0 } or false; received ${JSON.stringify(limit)}.`,
    );
  }
  const limiter = new RateLimiterMemory({ points: limit.requests, duration: limit.perMs / 1000 });
  const window = formatWindow(limit.perMs);
  return async (subject) => {
    try {
      await limiter.consume(floodKey(subject), 1);
      return undefined;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfterMs = Math.max(1, Math.ceil(rejection.msBeforeNext));
      const retryAfterS = Math.max(1, Math.ceil(retryAfterMs / 1000));
      return {
        status: 429,
        code: HOST_REFUSAL_CODES.TooManyRequests,
        reason: 'flood',
        // Only the first refusal of a window is worth a warning; the rest would let a flood flood the log.
        quiet: rejection.consumedPoints > limit.requests + 1,
        headers: { 'retry-after': String(retryAfterS) },
        message:
          `Too many requests ${'principal' in subject ? 'with this credential' : 'from this client address'}: ` +
          `the limit is ${limit.requests} requests per ${window}. ` +
          `Wait ${retryAfterS} s (Retry-After) before sending the next request; requests sent sooner are refused the same way. ` +
          NOTHING_CHANGED,
        data: { retryAfterMs, limit: limit.requests, perMs: limit.perMs },
      };
    }
  };
}

function formatWindow(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
