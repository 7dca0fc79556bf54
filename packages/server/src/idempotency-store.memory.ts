/**
 * An in-process {@link IdempotencyStore}: enough for one server process and for tests.
 *
 * @packageDocumentation
 */
import type { IdempotencyClaim, IdempotencyStore, ToolSuccess } from './contract.ts';
import { claimOfRecord } from './idempotency-claim.ts';

interface IdempotencyRecord {
  readonly tool: string;
  readonly argsHash: string;
  result?: ToolSuccess;
  expiresAt: number;
  lease: string;
  leaseUntil: number;
}

/** Options of {@link createMemoryIdempotencyStore}. */
export interface MemoryIdempotencyStoreOptions {
  /** Clock in epoch milliseconds (default `Date.now`); tests pass their own. */
  readonly now?: () => number;
}

/** A memory idempotency store; `size` counts the records that have not expired. */
export interface MemoryIdempotencyStore extends IdempotencyStore {
  readonly size: number;
}

/**
 * Creates an in-memory idempotency store. Records (pending or done) live for the `ttlMs` given to `claim`,
 * counted from the claim; expired records are dropped lazily. A pending record whose `leaseMs` ran out is taken
 * over by the next claim with the same tool and arguments. Records are scoped by caller and key; a claim
 * for a known key with another tool or other arguments answers `mismatch`.
 */
export function createMemoryIdempotencyStore(
  options: MemoryIdempotencyStoreOptions = {},
): MemoryIdempotencyStore {
  const now = options.now ?? Date.now;
  const records = new Map<string, IdempotencyRecord>();
  const keyOf = (principalId: string, key: string): string => `${principalId}\u0000${key}`;
  let leases = 0;
  const newLease = (): string => `lease-${String((leases += 1))}`;

  const sweep = (): void => {
    const t = now();
    for (const [k, record] of records) if (record.expiresAt <= t) records.delete(k);
  };

  const live = (principalId: string, key: string): IdempotencyRecord | undefined => {
    const record = records.get(keyOf(principalId, key));
    if (record === undefined) return undefined;
    if (record.expiresAt <= now()) {
      records.delete(keyOf(principalId, key));
      return undefined;
    }
    return record;
  };

  return {
    claim(principalId, key, tool, argsHash, ttlMs, leaseMs = ttlMs): Promise<IdempotencyClaim> {
      if (records.size > 0 && records.size % 1024 === 0) sweep();
      const record = live(principalId, key);
      const t = now();
      const claim = claimOfRecord(record ?? { tool, argsHash }, tool, argsHash);
      // Absent, or pending past its lease (its holder is gone): this call takes the key.
      if (record === undefined || (claim.state === 'pending' && record.leaseUntil <= t)) {
        const lease = newLease();
        records.set(keyOf(principalId, key), {
          tool,
          argsHash,
          expiresAt: t + ttlMs,
          lease,
          leaseUntil: t + leaseMs,
        });
        return Promise.resolve({ state: 'claimed', lease });
      }
      return Promise.resolve(claim);
    },
    complete(principalId, key, result, lease) {
      const record = live(principalId, key);
      if (record !== undefined && (lease === undefined || record.lease === lease)) record.result = result;
      return Promise.resolve();
    },
    release(principalId, key, lease) {
      const record = live(principalId, key);
      if (record?.result === undefined && (lease === undefined || record?.lease === lease))
        records.delete(keyOf(principalId, key));
      return Promise.resolve();
    },
    get size() {
      sweep();
      return records.size;
    },
  };
}
