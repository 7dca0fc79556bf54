/**
 * How a stored idempotency record answers a claim for a key that is already taken; shared by the SQLite and
 * the PostgreSQL idempotency stores.
 *
 * @packageDocumentation
 */
import type { IdempotencyClaim, ToolSuccess } from '@recourse/server';

/** An `idempotency` row as both databases return it; `result` is the JSON of the first success, or null. */
export interface IdempotencyRow {
  tool: string;
  args_hash: string;
  result: string | null;
}

/**
 * The claim state of a live record for a repeat of `tool` with `argsHash`: `mismatch` for another tool or other
 * arguments, `pending` while the first call runs, `done` with its result afterwards.
 */
export function claimOfExisting(row: IdempotencyRow, tool: string, argsHash: string): IdempotencyClaim {
  if (row.tool !== tool || row.args_hash !== argsHash) return { state: 'mismatch' };
  if (row.result === null) return { state: 'pending' };
  return { state: 'done', argsHash: row.args_hash, result: JSON.parse(row.result) as ToolSuccess };
}
