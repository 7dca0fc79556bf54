/**
 * A rate-limit store factory for the kit on the board's SQLite database (table `rate_limits`), so that counts
 * survive a restart: rate-limiter-flexible's `RateLimiterSQLite` with the better-sqlite3 driver.
 *
 * @packageDocumentation
 */
import type { Database } from 'better-sqlite3';
import { RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { SerialLock } from '../store/serial-lock.ts';

/** Options the kit passes when it needs a limiter for one limit. */
export interface LimiterOptions {
  readonly keyPrefix: string;
  readonly points: number;
  /** Window in seconds. */
  readonly duration: number;
}

/** The limiter methods that touch the database and so must run inside the shared lock. */
const LOCKED_METHODS = new Set(['consume', 'penalty', 'reward', 'get', 'set', 'block', 'delete']);

/** Runs the database-touching methods of `limiter` inside `lock`. */
function lockedLimiter(limiter: RateLimiterAbstract, lock: SerialLock): RateLimiterAbstract {
  return new Proxy(limiter, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !LOCKED_METHODS.has(property) || typeof value !== 'function')
        return value;
      return (...args: unknown[]) => lock.run(() => Promise.resolve(value.apply(target, args) as unknown));
    },
  });
}

/**
 * Returns a factory building `RateLimiterSQLite` limiters on `db` (migrated: the `rate_limits` table exists, so
 * the limiter does not create it). Expired rows are cleared by the limiter's own hourly sweep. With `lock` (the
 * lock shared by every writer of the connection), each limiter call runs inside it.
 */
export function sqliteRateLimitStoreFactory(
  db: Database,
  options: { lock?: SerialLock } = {},
): (options: LimiterOptions) => RateLimiterAbstract {
  return (limits) => {
    const limiter = new RateLimiterSQLite({
      ...limits,
      storeClient: db,
      storeType: 'better-sqlite3',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: true,
    });
    return options.lock ? lockedLimiter(limiter, options.lock) : limiter;
  };
}
