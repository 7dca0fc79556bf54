/**
 * The kit's {@link IdempotencyStore} on PostgreSQL (table `idempotency`), shared by every board instance.
 *
 * @packageDocumentation
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { IdempotencyClaim, IdempotencyStore } from '@recourse/server';
import { claimOfExisting, leaseLost, type IdempotencyRow } from './idempotency-record.ts';
import type { PgAmbientTransaction } from './pg-ambient-transaction.ts';

/**
 * Creates the store on a migrated board database. `claim` is one atomic `INSERT … ON CONFLICT … RETURNING`:
 * of concurrent claims for one member and key (from any instance) exactly one is `claimed`. Expired records
 * count as absent and are purged every 256 claims; a pending claim whose lease ran out is taken over by the next
 * claim with the same tool and arguments. `now` defaults to `Date.now`. With `ambient` (shared with the board
 * store) the store offers `completeAtomically`: the handler runs inside one transaction that also stores its
 * result, so a crash between the write and its record cannot leave a write that a retry would do again.
 */
export function createPgIdempotencyStore(
  pool: Pool,
  options: { now?: () => number; ambient?: PgAmbientTransaction } = {},
): IdempotencyStore {
  const now = options.now ?? Date.now;
  let claims = 0;
  return {
    async claim(memberId, key, tool, argsHash, ttlMs, leaseMs = ttlMs): Promise<IdempotencyClaim> {
      claims += 1;
      const t = now();
      if (claims % 256 === 0) await pool.query('DELETE FROM idempotency WHERE expires_at <= $1', [t]);
      const lease = randomUUID();
      const inserted = await pool.query(
        `INSERT INTO idempotency (member_id, key, tool, args_hash, result, expires_at, lease_id, lease_until)
         VALUES ($1, $2, $3, $4, NULL, $5, $7, $8)
         ON CONFLICT (member_id, key) DO UPDATE SET
           tool = EXCLUDED.tool, args_hash = EXCLUDED.args_hash, result = NULL, expires_at = EXCLUDED.expires_at,
           lease_id = EXCLUDED.lease_id, lease_until = EXCLUDED.lease_until
         WHERE idempotency.expires_at <= $6
            OR (idempotency.result IS NULL AND idempotency.lease_until <= $6
                AND idempotency.tool = EXCLUDED.tool AND idempotency.args_hash = EXCLUDED.args_hash)
         RETURNING member_id`,
        [memberId, key, tool, argsHash, t + ttlMs, t, lease, t + leaseMs],
      );
      if (inserted.rowCount === 1) return { state: 'claimed', lease };
      const { rows } = await pool.query<IdempotencyRow>(
        'SELECT tool, args_hash, result FROM idempotency WHERE member_id = $1 AND key = $2',
        [memberId, key],
      );
      const row = rows[0];
      if (!row) return this.claim(memberId, key, tool, argsHash, ttlMs, leaseMs);
      return claimOfExisting(row, tool, argsHash);
    },
    async complete(memberId, key, result, lease) {
      await pool.query(
        `UPDATE idempotency SET result = $1
         WHERE member_id = $2 AND key = $3 AND expires_at > $4 AND result IS NULL
           AND ($5::text IS NULL OR lease_id = $5::text)`,
        [JSON.stringify(result), memberId, key, now(), lease ?? null],
      );
    },
    ...(options.ambient === undefined
      ? {}
      : { completeAtomically: completeAtomicallyOn(pool, options.ambient, now) }),
    async release(memberId, key, lease) {
      await pool.query(
        `DELETE FROM idempotency WHERE member_id = $1 AND key = $2 AND result IS NULL
           AND ($3::text IS NULL OR lease_id = $3::text)`,
        [memberId, key, lease ?? null],
      );
    },
  };
}

function completeAtomicallyOn(
  pool: Pool,
  ambient: PgAmbientTransaction,
  now: () => number,
): NonNullable<IdempotencyStore['completeAtomically']> {
  return async (memberId, key, lease, work) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      try {
        const success = await ambient.run(client, work);
        const stored = await client.query(
          `UPDATE idempotency SET result = $1
           WHERE member_id = $2 AND key = $3 AND expires_at > $4 AND result IS NULL AND lease_id = $5`,
          [JSON.stringify(success), memberId, key, now(), lease],
        );
        if (stored.rowCount !== 1) throw leaseLost(key);
        await client.query('COMMIT');
        return success;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      client.release();
    }
  };
}
