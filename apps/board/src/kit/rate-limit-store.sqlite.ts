/**
 * A rate-limit store factory for the kit on the board's SQLite database (table `rate_limits`), so that counts
 * survive a restart: rate-limiter-flexible's `RateLimiterSQLite` with the better-sqlite3 driver.
 *
 * @packageDocumentation
 */
import type { Database } from 'better-sqlite3';
import { RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Options the kit passes when it needs a limiter for one limit. */
export interface LimiterOptions {
  readonly keyPrefix: string;
  readonly points: number;
  /** Window in seconds. */
  readonly duration: number;
}

/**
 * Returns a factory building `RateLimiterSQLite` limiters on `db` (migrated: the `rate_limits` table exists, so
 * the limiter does not create it). Expired rows are cleared by the limiter's own hourly sweep.
 */
export function sqliteRateLimitStoreFactory(db: Database): (options: LimiterOptions) => RateLimiterAbstract {
  return (options) =>
    new RateLimiterSQLite({
      ...options,
      storeClient: db,
      storeType: 'better-sqlite3',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: true,
    });
}
