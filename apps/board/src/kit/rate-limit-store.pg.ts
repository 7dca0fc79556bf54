/**
 * A rate-limit store factory on PostgreSQL (table `rate_limits`), so that every board instance counts against
 * the same limits and counts survive restarts: rate-limiter-flexible's `RateLimiterPostgres` on a `pg` pool.
 *
 * @packageDocumentation
 */
import type { Pool } from 'pg';
import { RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimiterOptions } from './rate-limit-store.sqlite.ts';

/**
 * Returns a factory building `RateLimiterPostgres` limiters on `pool` (migrated: the `rate_limits` table exists,
 * so the limiter does not create it; its timer sweep is off, expired rows are simply overwritten).
 */
export function pgRateLimitStoreFactory(pool: Pool): (options: LimiterOptions) => RateLimiterAbstract {
  return (limits) =>
    new RateLimiterPostgres({
      ...limits,
      storeClient: pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: false,
    });
}
