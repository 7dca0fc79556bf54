/**
 * A rate-limit store for the kit on the board's SQLite database (table `rate_limits`, the layout of
 * rate-limiter-flexible's `RateLimiterSQLite`) that counts in memory and writes the counts behind the calls.
 *
 * A call is counted at once in this process's window for the member (read from the table the first time a
 * window is needed); the points counted since the last write go to the table in one transaction per batch,
 * at most {@link RATE_LIMIT_FLUSH_INTERVAL_MS} later, and at `flush()` / `close()` (the board's `close()` calls
 * it). Each write adds this process's points to the table's (`points + delta` in the same window) and reads the
 * sum back, so processes sharing the file (`serve` and `stdio` sessions) see each other's counts within one
 * interval: together they can exceed a limit by at most the calls of one interval each. Counts of the last
 * interval are lost when the process dies without closing; nothing else is. No call waits for the database
 * except the first of a window (one indexed read).
 *
 * @packageDocumentation
 */
import type { Database } from 'better-sqlite3';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createSerialLock, type SerialLock } from '../store/serial-lock.ts';
import { waitingOutBusy } from '../store/busy-retry.ts';

/** Options the kit passes when it needs a limiter for one limit. */
export interface LimiterOptions {
  readonly keyPrefix: string;
  readonly points: number;
  /** Window in seconds. */
  readonly duration: number;
}

/** How long counted points may wait before they are written (default 100 ms). */
export const RATE_LIMIT_FLUSH_INTERVAL_MS = 100;

/** Every this many limiter calls, rows that expired over an hour ago are deleted. */
const PURGE_EVERY_CALLS = 1000;

/** One member's window as this process knows it. */
interface Window {
  /** Points in the window: the table's at the last read or write, plus `pending`. */
  points: number;
  /** Epoch ms when the window ends. */
  expire: number;
  /** Points counted here and not written yet. */
  pending: number;
}

/** What a limiter needs from the store it belongs to. */
interface Shared {
  readonly db: Database;
  readonly windows: Map<string, Window>;
  markDirty(key: string): void;
  countCall(): Promise<void>;
  /** Deletes a key's row; true when there was one. */
  remove(key: string): Promise<boolean>;
}

/**
 * A limiter over the shared windows; only `consume`, `penalty`, `reward`, `get` and `delete` are supported. It
 * extends the memory limiter only for its type and key helpers (the package exports no abstract base at run time).
 */
class WriteBehindLimiter extends RateLimiterMemory {
  readonly #shared: Shared;
  readonly #read;

  constructor(options: LimiterOptions, shared: Shared) {
    super(options);
    this.#shared = shared;
    this.#read = shared.db.prepare<[string, number], { points: number; expire: number }>(
      'SELECT points, expire FROM rate_limits WHERE key = ? AND expire > ?',
    );
  }

  #window(key: string, now: number): Window {
    let window = this.#shared.windows.get(key);
    if (window === undefined || window.expire <= now) {
      const row = this.#read.get(key, now);
      window = { points: row?.points ?? 0, expire: row?.expire ?? now + this.msDuration, pending: 0 };
      this.#shared.windows.set(key, window);
    }
    return window;
  }

  #add(key: string, points: number): { window: Window; res: RateLimiterRes } {
    const now = Date.now();
    const rlKey = this.getKey(key);
    const window = this.#window(rlKey, now);
    window.points += points;
    window.pending += points;
    this.#shared.markDirty(rlKey);
    const res = new RateLimiterRes(
      Math.max(this.points - window.points, 0),
      window.expire - now,
      window.points,
      window.points === points,
    );
    return { window, res };
  }

  override async consume(key: string | number, points = 1): Promise<RateLimiterRes> {
    await this.#shared.countCall();
    const { window, res } = this.#add(String(key), points);
    // rate-limiter-flexible's contract: a refusal rejects with the RateLimiterRes (the kit recognises it).
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (window.points > this.points) throw res;
    return res;
  }

  override async penalty(key: string | number, points = 1): Promise<RateLimiterRes> {
    await this.#shared.countCall();
    return this.#add(String(key), points).res;
  }

  override async reward(key: string | number, points = 1): Promise<RateLimiterRes> {
    await this.#shared.countCall();
    return this.#add(String(key), -points).res;
  }

  override get(key: string | number): Promise<RateLimiterRes | null> {
    const now = Date.now();
    const window = this.#window(this.getKey(key), now);
    if (window.points === 0) return Promise.resolve(null);
    return Promise.resolve(
      new RateLimiterRes(Math.max(this.points - window.points, 0), window.expire - now, window.points, false),
    );
  }

  override delete(key: string | number): Promise<boolean> {
    const rlKey = this.getKey(key);
    this.#shared.windows.delete(rlKey);
    return this.#shared.countCall().then(() => this.#shared.remove(rlKey));
  }

  override set(): Promise<RateLimiterRes> {
    return Promise.reject(new Error('The SQLite rate-limit store does not support set().'));
  }

  override block(): Promise<RateLimiterRes> {
    return Promise.reject(new Error('The SQLite rate-limit store does not support block().'));
  }
}

/** A limiter factory for the kit that also writes the counted points: `flush()` now, `close()` at shutdown. */
export interface SqliteRateLimitStore {
  (options: LimiterOptions): RateLimiterAbstract;
  /** Writes the points counted so far (one transaction). */
  flush(): Promise<void>;
  /** Flushes and stops the timer; later counts are written at once. */
  close(): Promise<void>;
}

/**
 * Returns a factory building limiters on `db` (migrated: the `rate_limits` table exists) that count in memory
 * and write behind (see above). Writes run inside `lock` (the lock shared by every writer of the connection;
 * default: a lock of its own); a failed timed write goes to `onError` (its points are written with the next
 * batch). Every 1000 limiter calls, rows that expired over an hour ago are deleted (a
 * failed purge is ignored: it is retried later).
 */
export function sqliteRateLimitStoreFactory(
  db: Database,
  options: { lock?: SerialLock; flushIntervalMs?: number; onError?: (error: unknown) => void } = {},
): SqliteRateLimitStore {
  const lock = options.lock ?? createSerialLock();
  // A database locked by another process is waited out between turns of the lock (busy timeout 0).
  const waiting = waitingOutBusy(lock);
  const intervalMs = options.flushIntervalMs ?? RATE_LIMIT_FLUSH_INTERVAL_MS;
  const windows = new Map<string, Window>();
  const dirty = new Set<string>();
  const upsert = db.prepare<[string, number, number, number, number], { points: number; expire: number }>(
    `INSERT INTO rate_limits (key, points, expire) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET
       points = CASE WHEN expire > ? THEN points + excluded.points ELSE excluded.points END,
       expire = CASE WHEN expire > ? THEN expire ELSE excluded.expire END
     RETURNING points, expire`,
  );
  const purgeStatement = db.prepare('DELETE FROM rate_limits WHERE expire < ?');
  const deleteStatement = db.prepare('DELETE FROM rate_limits WHERE key = ?');
  const reportError = (error: unknown): void => options.onError?.(error);
  // The windows change only after the transaction committed: a failed batch is sent again with the next one.
  const writeAll = db.transaction((now: number) =>
    [...dirty].flatMap((key) => {
      const window = windows.get(key);
      if (window === undefined || window.pending === 0) return [];
      return [{ window, row: upsert.get(key, window.pending, window.expire, now, now)! }];
    }),
  );
  const writeDirty = (): void => {
    for (const { window, row } of writeAll(Date.now())) {
      window.points = row.points;
      window.expire = row.expire;
      window.pending = 0;
    }
    dirty.clear();
  };
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let calls = 0;

  const flush = (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (dirty.size === 0 || !db.open) return Promise.resolve();
    return waiting.runSync(writeDirty);
  };
  const shared: Shared = {
    db,
    windows,
    markDirty(key) {
      dirty.add(key);
      if (closed) void flush().catch(reportError);
      // unref: a pending write never keeps the process alive; close() writes what is left.
      else if (timer === undefined)
        timer = setTimeout(() => void flush().catch(reportError), intervalMs).unref();
    },
    async countCall() {
      calls += 1;
      if (calls % PURGE_EVERY_CALLS !== 0) return;
      await lock
        .runSync(() => void purgeStatement.run(Date.now() - 3_600_000))
        .catch(() => undefined /* expired rows are ignored by the limiter and purged later */);
    },
    remove: (key) => waiting.runSync(() => deleteStatement.run(key).changes > 0),
  };
  const factory = (limits: LimiterOptions): RateLimiterAbstract => new WriteBehindLimiter(limits, shared);
  return Object.assign(factory, {
    flush,
    async close() {
      closed = true;
      await flush();
    },
  });
}
