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
 * counted from the claim; expired records are dropped lazily. Records are scoped by member and key; a claim
 * for a known key with another tool or other arguments answers `mismatch`.
 */
export function createMemoryIdempotencyStore(
  options: MemoryIdempotencyStoreOptions = {},
): MemoryIdempotencyStore {
  const now = options.now ?? Date.now;
  const records = new Map<string, IdempotencyRecord>();
  const keyOf = (memberId: string, key: string): string => `${memberId}\u0000${key}`;

  const sweep = (): void => {
    const t = now();
    for (const [k, record] of records) if (record.expiresAt <= t) records.delete(k);
  };

  const live = (memberId: string, key: string): IdempotencyRecord | undefined => {
    const record = records.get(keyOf(memberId, key));
    if (record === undefined) return undefined;
    if (record.expiresAt <= now()) {
      records.delete(keyOf(memberId, key));
      return undefined;
    }
    return record;
  };

  return {
    claim(memberId, key, tool, argsHash, ttlMs): Promise<IdempotencyClaim> {
      if (records.size > 0 && records.size % 1024 === 0) sweep();
      const record = live(memberId, key);
      if (record === undefined) {
        records.set(keyOf(memberId, key), { tool, argsHash, expiresAt: now() + ttlMs });
        return Promise.resolve({ state: 'claimed' });
      }
      return Promise.resolve(claimOfRecord(record, tool, argsHash));
    },
    complete(memberId, key, result) {
      const record = live(memberId, key);
      if (record !== undefined) record.result = result;
      return Promise.resolve();
    },
    release(memberId, key) {
      const record = live(memberId, key);
      if (record?.result === undefined) records.delete(keyOf(memberId, key));
      return Promise.resolve();
    },
    get size() {
      sweep();
      return records.size;
    },
  };
}
