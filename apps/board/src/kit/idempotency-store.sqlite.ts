/**
 * The kit's {@link IdempotencyStore} on the board's SQLite database (table `idempotency`), so that repeats of
 * idempotent writes replay their first result across restarts.
 *
 * @packageDocumentation
 */
import type { Database } from 'better-sqlite3';
import type { IdempotencyClaim, IdempotencyStore } from '@recourse/server';
import { claimOfExisting, type IdempotencyRow } from './idempotency-record.ts';
import { createSerialLock, type SerialLock } from '../store/serial-lock.ts';
import { retryWhileBusy } from '../store/busy-retry.ts';

/** A SQLite idempotency store; `purgeExpired()` deletes records past their TTL and answers how many. */
export interface SqliteIdempotencyStore extends IdempotencyStore {
  purgeExpired(): number;
}

/**
 * Creates the store on a migrated board database. `claim` is atomic (one `INSERT … ON CONFLICT` in an
 * immediate transaction): of concurrent claims for one member and key exactly one is `claimed`. Expired
 * records count as absent and are purged every 256 claims. `now` defaults to `Date.now`. `lock` is the lock
 * shared by every writer of the connection (see `createSqliteBoardStore`).
 */
export function createSqliteIdempotencyStore(
  db: Database,
  options: { now?: () => number; lock?: SerialLock } = {},
): SqliteIdempotencyStore {
  const now = options.now ?? Date.now;
  const serial = options.lock ?? createSerialLock();
  // A database locked by another process is waited out between turns of the lock (busy timeout 0).
  const lock = { runSync: <T>(fn: () => T) => retryWhileBusy(() => serial.runSync(fn)) };
  const insert = db.prepare(
    `INSERT INTO idempotency (member_id, key, tool, args_hash, result, expires_at) VALUES (?, ?, ?, ?, NULL, ?)
     ON CONFLICT (member_id, key) DO UPDATE SET
       tool = excluded.tool, args_hash = excluded.args_hash, result = NULL, expires_at = excluded.expires_at
     WHERE idempotency.expires_at <= ?
     RETURNING member_id`,
  );
  const select = db.prepare(
    'SELECT tool, args_hash, result FROM idempotency WHERE member_id = ? AND key = ?',
  );
  const complete = db.prepare(
    'UPDATE idempotency SET result = ? WHERE member_id = ? AND key = ? AND expires_at > ?',
  );
  const release = db.prepare('DELETE FROM idempotency WHERE member_id = ? AND key = ? AND result IS NULL');
  const purge = db.prepare('DELETE FROM idempotency WHERE expires_at <= ?');
  let claims = 0;

  const claimTx = db.transaction(
    (memberId: string, key: string, tool: string, argsHash: string, ttlMs: number) => {
      const t = now();
      if (insert.get(memberId, key, tool, argsHash, t + ttlMs, t) !== undefined)
        return { state: 'claimed' } as const;
      return claimOfExisting(select.get(memberId, key) as IdempotencyRow, tool, argsHash);
    },
  );

  return {
    claim(memberId, key, tool, argsHash, ttlMs): Promise<IdempotencyClaim> {
      claims += 1;
      return lock.runSync(() => {
        if (claims % 256 === 0) purge.run(now());
        return claimTx.immediate(memberId, key, tool, argsHash, ttlMs);
      });
    },
    complete(memberId, key, result) {
      return lock.runSync(() => {
        complete.run(JSON.stringify(result), memberId, key, now());
      });
    },
    release(memberId, key) {
      return lock.runSync(() => {
        release.run(memberId, key);
      });
    },
    purgeExpired() {
      return purge.run(now()).changes;
    },
  };
}
