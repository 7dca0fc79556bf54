/**
 * Per-caller tool-call rate limits on top of rate-limiter-flexible, with the store injected.
 *
 * @packageDocumentation
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Principal } from './contract.ts';

/** What a {@link RateLimitStoreFactory} is asked to build: one limiter per distinct limit. */
export interface RateLimitStoreOptions {
  /** Prefix of the store keys, distinct per limit (e.g. `recourse-rl-120-60`). */
  readonly keyPrefix: string;
  /** Points (tool-call cost units) allowed per window. */
  readonly points: number;
  /** Window length in seconds, as rate-limiter-flexible expects it. */
  readonly duration: number;
}

/** Builds a limiter for one limit, e.g. `(o) => new RateLimiterSQLite({ ...o, storeClient: db, storeType: 'better-sqlite3' })`. */
export type RateLimitStoreFactory = (options: RateLimitStoreOptions) => RateLimiterAbstract;

/** Rate-limit settings of a Recourse server. */
export interface RateLimitOptions {
  /** Tool calls (cost units) a caller may make per window (default 120). */
  readonly defaultPerMinute?: number;
  /** Limits by role; a role's limit wins over `perCaller` and the default. */
  readonly perRole?: Readonly<Record<string, number>>;
  /**
   * The limit of one caller, from anything the application knows about it (e.g. its `attributes`), or
   * `undefined` for the default; wins over the default. A value that is not a positive whole number fails the
   * call as `transient` / `RATE_LIMIT_UNAVAILABLE` and is logged.
   */
  readonly perCaller?: (principal: Principal) => number | undefined;
  /** Window length in milliseconds (default 60 000; tests use shorter windows). */
  readonly windowMs?: number;
  /** Builds the limiter store (default: rate-limiter-flexible's memory store). */
  readonly storeFactory?: RateLimitStoreFactory;
}

/** The answer of {@link RateLimits.consume}. */
export type RateVerdict =
  | { readonly allowed: true; readonly limit: number; readonly remaining: number }
  | {
      readonly allowed: false;
      /** Points allowed per window for this caller. */
      readonly limit: number;
      readonly windowMs: number;
      /** Milliseconds until the window has room again (from `msBeforeNext`). */
      readonly retryAfterMs: number;
      /** True when the call's cost alone exceeds the limit: waiting will not help. */
      readonly costExceedsLimit: boolean;
    };

/** Per-caller limits; `consume` takes the call's cost from the caller's window. */
export interface RateLimits {
  /** The limit that applies to `principal`, per window. */
  limitFor(principal: Principal): number;
  readonly windowMs: number;
  /** Consumes `cost` points for the caller. Store failures reject with the store's error. */
  consume(principal: Principal, cost: number): Promise<RateVerdict>;
}

/** Error code thrown by {@link createRateLimits} for a limit that is not a positive integer. */
export const INVALID_RATE_LIMIT = 'INVALID_RATE_LIMIT';

function checkLimit(where: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw Object.assign(
      new Error(
        `Rate limit ${where} is ${String(value)}; expected a positive whole number of calls per window.`,
      ),
      { name: 'RateLimitConfigError', code: INVALID_RATE_LIMIT },
    );
  }
}

/**
 * Creates the rate limits of a server. Defaults: 120 points per caller per 60 s window, memory store.
 * Throws an error with code `INVALID_RATE_LIMIT` when a configured limit is not a positive integer.
 */
export function createRateLimits(options: RateLimitOptions = {}): RateLimits {
  const defaultLimit = options.defaultPerMinute ?? 120;
  const windowMs = options.windowMs ?? 60_000;
  checkLimit('defaultPerMinute', defaultLimit);
  checkLimit('windowMs', windowMs);
  for (const [role, value] of Object.entries(options.perRole ?? {})) checkLimit(`perRole.${role}`, value);

  const factory: RateLimitStoreFactory = options.storeFactory ?? ((o) => new RateLimiterMemory(o));
  const limiters = new Map<number, RateLimiterAbstract>();
  const duration = windowMs / 1000;
  const limiterFor = (points: number): RateLimiterAbstract => {
    let limiter = limiters.get(points);
    if (limiter === undefined) {
      limiter = factory({ keyPrefix: `recourse-rl-${String(points)}-${String(windowMs)}`, points, duration });
      limiters.set(points, limiter);
    }
    return limiter;
  };

  const limitFor = (principal: Principal): number => {
    const byRole = principal.role === undefined ? undefined : options.perRole?.[principal.role];
    if (byRole !== undefined) return byRole;
    const byCaller = options.perCaller?.(principal);
    if (byCaller === undefined) return defaultLimit;
    checkLimit(`perCaller(${principal.id})`, byCaller);
    return byCaller;
  };

  return {
    limitFor,
    windowMs,
    async consume(principal, cost) {
      const limit = limitFor(principal); // a bad perCaller value throws here: the step maps it to transient
      try {
        const res = await limiterFor(limit).consume(principal.id, cost);
        return { allowed: true, limit, remaining: res.remainingPoints };
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        return {
          allowed: false,
          limit,
          windowMs,
          retryAfterMs: Math.max(1, Math.ceil(error.msBeforeNext)),
          costExceedsLimit: cost > limit,
        };
      }
    },
  };
}
