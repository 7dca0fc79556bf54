/**
 * A rate-limit store factory for the kit on the board's SQLite database (table `rate_limits`), so that counts
 * survive a restart: rate-limiter-flexible's `RateLimiterSQLite` with the better-sqlite3 driver.
 *
 * @packageDocumentation
 */
import type { Database } from 'better-sqlite3';
import { RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createSerialLock, type SerialLock } from '../store/serial-lock.ts';
import { retryWhileBusy } from '../store/busy-retry.ts';

/** Options the kit passes when it needs a limiter for one limit. */
export interface LimiterOptions {
  readonly keyPrefix: string;
  readonly points: number;
  /** Window in seconds. */
  readonly duration: number;
}

/** The limiter methods that touch the database and so must run inside the shared lock. */
const LOCKED_METHODS = new Set(['consume', 'penalty', 'reward', 'get', 'set', 'block', 'delete']);

/** Runs `purge`, ignoring a failure (it is retried on a later call). */
function purgeQuietly(purge: () => void): void {
  try {
    purge();
  } catch {
    // A failed purge leaves expired rows behind; they are ignored by the limiter and purged later.
  }
}

/** Every this many limiter calls, rows that expired over an hour ago are deleted. */
const PURGE_EVERY_CALLS = 1000;

/**
 * Runs the database-touching methods of `limiter` inside `lock`, and every {@link PURGE_EVERY_CALLS} calls
 * deletes rows that expired over an hour ago (a failed purge is ignored: it is retried later).
 */
function lockedLimiter(limiter: RateLimiterSQLite, lock: SerialLock, purge: () => void): RateLimiterAbstract {
  let calls = 0;
  return new Proxy(limiter, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !LOCKED_METHODS.has(property) || typeof value !== 'function')
        return value;
      // A database locked by another process is waited out between turns of the lock (busy timeout 0).
      return (...args: unknown[]) =>
        retryWhileBusy(() =>
          lock.run(async () => {
            calls += 1;
            if (calls % PURGE_EVERY_CALLS === 0) purgeQuietly(purge);
            return (await value.apply(target, args)) as unknown;
          }),
        );
    },
  });
}

/**
 * Returns a factory building `RateLimiterSQLite` limiters on `db` (migrated: the `rate_limits` table exists, so
 * the limiter does not create it). Each limiter call runs inside `lock` (the lock shared by every writer of the
 * connection; default: a lock of its own). The limiter's own timer sweep is off: a sweep failing on a timer
 * would be an unhandled rejection; expired rows are purged every 1000 calls instead.
 */
export function sqliteRateLimitStoreFactory(
  db: Database,
  options: { lock?: SerialLock } = {},
): (options: LimiterOptions) => RateLimiterAbstract {
  const lock = options.lock ?? createSerialLock();
  const purgeStatement = db.prepare('DELETE FROM rate_limits WHERE expire < ?');
  const purge = () => void purgeStatement.run(Date.now() - 3_600_000);
  return (limits) =>
    lockedLimiter(
      new RateLimiterSQLite({
        ...limits,
        storeClient: db,
        storeType: 'better-sqlite3',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: false,
      }),
      lock,
      purge,
    );
}
