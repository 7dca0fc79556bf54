/**
 * The kit's {@link IdempotencyStore} on the board's SQLite database (table `idempotency`), so that repeats of
 * idempotent writes replay their first result across restarts, and a crash never leaves a key stuck.
 *
 * @packageDocumentation
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { IdempotencyClaim, IdempotencyStore } from '@recourse/server';
import { claimOfExisting, leaseLost, type IdempotencyRow } from './idempotency-record.ts';
import { createSerialLock, type SerialLock } from '../store/serial-lock.ts';
import { retryWhileBusy, waitingOutBusy } from '../store/busy-retry.ts';

/** A SQLite idempotency store; `purgeExpired()` deletes records past their TTL and answers how many. */
export interface SqliteIdempotencyStore extends IdempotencyStore {
  purgeExpired(): number;
  completeAtomically: NonNullable<IdempotencyStore['completeAtomically']>;
}

/**
 * Creates the store on a migrated board database. `claim` is atomic (one `INSERT … ON CONFLICT` in an
 * immediate transaction): of concurrent claims for one member and key exactly one is `claimed`; a pending claim
 * whose lease ran out is taken over by the next claim with the same tool and arguments. `completeAtomically`
 * runs the handler inside one transaction that also stores its result (the board store's own transaction
 * becomes a savepoint of it), so a crash leaves either nothing or the write with its result. Expired records
 * count as absent and are purged every 256 claims. `now` defaults to `Date.now`. `lock` is the lock shared by
 * every writer of the connection (see `createSqliteBoardStore`).
 */
export function createSqliteIdempotencyStore(
  db: Database,
  options: { now?: () => number; lock?: SerialLock } = {},
): SqliteIdempotencyStore {
  const now = options.now ?? Date.now;
  const serial = options.lock ?? createSerialLock();
  // A database locked by another process is waited out between turns of the lock (busy timeout 0).
  const lock = waitingOutBusy(serial);
  const insert = db.prepare(
    `INSERT INTO idempotency (member_id, key, tool, args_hash, result, expires_at, lease_id, lease_until)
     VALUES (?, ?, ?, ?, NULL, ?, ?, ?)
     ON CONFLICT (member_id, key) DO UPDATE SET
       tool = excluded.tool, args_hash = excluded.args_hash, result = NULL, expires_at = excluded.expires_at,
       lease_id = excluded.lease_id, lease_until = excluded.lease_until
     WHERE idempotency.expires_at <= ?
        OR (idempotency.result IS NULL AND idempotency.lease_until <= ?
            AND idempotency.tool = excluded.tool AND idempotency.args_hash = excluded.args_hash)
     RETURNING member_id`,
  );
  const select = db.prepare(
    'SELECT tool, args_hash, result FROM idempotency WHERE member_id = ? AND key = ?',
  );
  const complete = db.prepare(
    `UPDATE idempotency SET result = ?
     WHERE member_id = ? AND key = ? AND expires_at > ? AND result IS NULL AND (? IS NULL OR lease_id = ?)`,
  );
  const release = db.prepare(
    'DELETE FROM idempotency WHERE member_id = ? AND key = ? AND result IS NULL AND (? IS NULL OR lease_id = ?)',
  );
  const purge = db.prepare('DELETE FROM idempotency WHERE expires_at <= ?');
  let claims = 0;

  const claimTx = db.transaction(
    (memberId: string, key: string, tool: string, argsHash: string, ttlMs: number, leaseMs: number) => {
      const t = now();
      const lease = randomUUID();
      if (insert.get(memberId, key, tool, argsHash, t + ttlMs, lease, t + leaseMs, t, t) !== undefined)
        return { state: 'claimed', lease } as const;
      return claimOfExisting(select.get(memberId, key) as IdempotencyRow, tool, argsHash);
    },
  );

  return {
    claim(memberId, key, tool, argsHash, ttlMs, leaseMs = ttlMs): Promise<IdempotencyClaim> {
      claims += 1;
      return lock.runSync(() => {
        if (claims % 256 === 0) purge.run(now());
        return claimTx.immediate(memberId, key, tool, argsHash, ttlMs, leaseMs);
      });
    },
    complete(memberId, key, result, lease) {
      return lock.runSync(() => {
        complete.run(JSON.stringify(result), memberId, key, now(), lease ?? null, lease ?? null);
      });
    },
    release(memberId, key, lease) {
      return lock.runSync(() => {
        release.run(memberId, key, lease ?? null, lease ?? null);
      });
    },
    completeAtomically(memberId, key, lease, work) {
      const attempt = () =>
        serial.run(async () => {
          db.exec('BEGIN IMMEDIATE');
          try {
            const success = await work();
            const stored = complete.run(JSON.stringify(success), memberId, key, now(), lease, lease);
            if (stored.changes !== 1) throw leaseLost(key);
            db.exec('COMMIT');
            return success;
          } catch (error) {
            if (db.inTransaction) db.exec('ROLLBACK');
            throw error;
          }
        });
      // Only BEGIN IMMEDIATE (before any work) or COMMIT (rolled back) can meet a locked database.
      return retryWhileBusy(attempt);
    },
    purgeExpired() {
      return purge.run(now()).changes;
    },
  };
}
