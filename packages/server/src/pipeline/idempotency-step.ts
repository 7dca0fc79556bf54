/**
 * Pipeline step 5: a write that carries an idempotency key is done once per caller and key.
 *
 * @packageDocumentation
 */
import { conflict, type ToolFailure } from '@recourse/core';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../logger.ts';
import type { IdempotencyStore, ToolSuccess } from '../contract.ts';
import type { CallScope } from '../call-scope.ts';
import { hashArguments } from '../argument-hash.ts';
import { raceScope } from './handler-step.ts';

/** How often a call waits for another call holding the same key, in milliseconds. */
export const IDEMPOTENCY_POLL_MS = 20;

/**
 * How long a claim outlives its call's deadline before another call may take it over: 5 s. A claim is pending
 * that long only when the server holding it stopped (crashed) before it finished.
 */
export const IDEMPOTENCY_LEASE_GRACE_MS = 5000;

/** What {@link runIdempotent} needs. */
export interface IdempotentCall {
  readonly store: IdempotencyStore;
  readonly ttlMs: number;
  readonly principalId: string;
  readonly tool: string;
  readonly key: string;
  readonly args: Record<string, unknown>;
  readonly scope: CallScope;
  readonly logger: Logger;
}

/** How an idempotent call ended: run now, or replayed from an earlier call with the same key. */
export interface IdempotentOutcome {
  readonly success: ToolSuccess;
  readonly replayed: boolean;
}

function keyReused(call: IdempotentCall): ToolFailure {
  return conflict({
    code: 'IDEMPOTENCY_KEY_REUSED',
    message: `The idempotency key "${call.key}" was already used for a different call (another tool or other arguments).`,
    expected: 'a fresh key for new work, or the very same arguments to repeat the earlier call',
    next: 'Send this call with a new idempotencyKey, or repeat the earlier call unchanged to get its result.',
  });
}

/**
 * Runs `start` at most once per caller and key: a repeat with the same arguments replays the first success, a
 * call with the same key but another tool or other arguments is refused, and a call that finds the key held by
 * a running call polls every {@link IDEMPOTENCY_POLL_MS} ms until that call finishes or its own deadline fires.
 * The claim follows the handler, not the answer: a handler that finishes after its deadline still completes the
 * record (so a retry replays it); a failed handler releases the claim. A claim holds a lease of the call's
 * deadline plus {@link IDEMPOTENCY_LEASE_GRACE_MS}: a claim left pending by a crashed server is taken over by the
 * first repeat after that. With a store that offers `completeAtomically`, the handler's write and the claim's
 * result are committed in one transaction. Failure: `conflict` /
 * `IDEMPOTENCY_KEY_REUSED`; otherwise whatever `start` or the scope throws.
 */
export async function runIdempotent(
  call: IdempotentCall,
  start: () => Promise<ToolSuccess>,
): Promise<IdempotentOutcome> {
  const argsHash = hashArguments(call.tool, call.args);
  const { store, principalId, key, scope } = call;
  for (;;) {
    if (scope.signal.aborted) throw scope.signal.reason as Error;
    const leaseMs = scope.deadlineMs + IDEMPOTENCY_LEASE_GRACE_MS;
    const claim = await store.claim(principalId, key, call.tool, argsHash, call.ttlMs, leaseMs);
    switch (claim.state) {
      case 'claimed': {
        const { lease } = claim;
        const logFailure = (error: unknown): void => {
          call.logger.error(
            { err: error, principalId, tool: call.tool },
            'idempotency record could not be updated',
          );
        };
        let work: Promise<ToolSuccess>;
        if (store.completeAtomically !== undefined && lease !== undefined) {
          // The handler's write and the claim's result commit together, or neither does.
          work = store.completeAtomically(principalId, key, lease, start);
          work.catch(() => store.release(principalId, key, lease).catch(logFailure));
        } else {
          work = start();
          work
            .then(
              (success) => store.complete(principalId, key, success, lease),
              () => store.release(principalId, key, lease),
            )
            .catch(logFailure);
        }
        return { success: await raceScope(work, scope), replayed: false };
      }
      case 'done':
        if (claim.argsHash !== argsHash) throw keyReused(call);
        return { success: claim.result, replayed: true };
      case 'mismatch':
        throw keyReused(call);
      case 'pending':
        // Rejects only when the call's signal fires; the loop then throws the abort reason.
        await delay(IDEMPOTENCY_POLL_MS, undefined, { signal: scope.signal }).catch(() => undefined);
        break;
    }
  }
}
