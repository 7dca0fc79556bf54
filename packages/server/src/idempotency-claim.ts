/**
 * How a live idempotency record answers a claim for its key: the one rule every `IdempotencyStore`
 * applies once the key is taken (the memory store here, the board's SQLite and PostgreSQL stores).
 *
 * @packageDocumentation
 */
import type { IdempotencyClaim, ToolSuccess } from './contract.ts';

/** A live (unexpired) record as a store keeps it: the tool, the hash of its arguments, its first success. */
export interface IdempotencyRecordView {
  readonly tool: string;
  readonly argsHash: string;
  /** The first success; absent while the first call still runs. */
  readonly result?: ToolSuccess | undefined;
}

/**
 * The claim state of a live `record` for a call of `tool` with `argsHash`: `mismatch` for another tool or other
 * arguments, `pending` while the first call runs, `done` with its result afterwards. Never `claimed`: that is
 * the store's answer when no live record exists.
 */
export function claimOfRecord(
  record: IdempotencyRecordView,
  tool: string,
  argsHash: string,
): IdempotencyClaim {
  if (record.tool !== tool || record.argsHash !== argsHash) return { state: 'mismatch' };
  if (record.result === undefined) return { state: 'pending' };
  return { state: 'done', argsHash: record.argsHash, result: record.result };
}
