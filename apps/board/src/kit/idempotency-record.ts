/**
 * An `idempotency` row of the SQLite and PostgreSQL stores, read as a claim for a key that is already taken.
 *
 * @packageDocumentation
 */
import { transientFailure } from '@recourse/core';
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

/** The failure of a call whose claim was taken over by a retry while it ran (nothing was committed). */
export function leaseLost(key: string) {
  return transientFailure({
    code: 'IDEMPOTENCY_LEASE_LOST',
    message: `The call with idempotency key "${key}" ran past its lease and a repeat of it took the key over, so this run's work was not committed.`,
    next: 'Repeat the call with the same idempotencyKey to get the result of the run that holds the key.',
    retryAfterMs: 1000,
    changed: false,
  });
}
