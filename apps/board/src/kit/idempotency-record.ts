/**
 * An `idempotency` row of the SQLite and PostgreSQL stores, read as a claim for a key that is already taken.
 *
 * @packageDocumentation
 */
import { claimOfRecord, type IdempotencyClaim, type ToolSuccess } from '@recourse/server';

/** An `idempotency` row as both databases return it; `result` is the JSON of the first success, or null. */
export interface IdempotencyRow {
  tool: string;
  args_hash: string;
  result: string | null;
}

/** The claim state of a live row for a repeat of `tool` with `argsHash`, by the kit's {@link claimOfRecord}. */
export function claimOfExisting(row: IdempotencyRow, tool: string, argsHash: string): IdempotencyClaim {
  const result = row.result === null ? undefined : (JSON.parse(row.result) as ToolSuccess);
  return claimOfRecord({ tool: row.tool, argsHash: row.args_hash, result }, tool, argsHash);
}
