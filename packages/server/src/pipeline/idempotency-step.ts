/**
 * Pipeline step 5: a write that carries an idempotency key is done once per member and key.
 *
 * @packageDocumentation
 */
import { conflict, type ToolFailure } from '@recourse/core';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { IdempotencyStore, ToolSuccess } from '../contract.ts';
import type { CallScope } from '../call-scope.ts';
import { hashArguments } from '../argument-hash.ts';
import { raceScope } from './handler-step.ts';

/** How often a call waits for another call holding the same key, in milliseconds. */
export const IDEMPOTENCY_POLL_MS = 20;

/** What {@link runIdempotent} needs. */
export interface IdempotentCall {
  readonly store: IdempotencyStore;
  readonly ttlMs: number;
  readonly memberId: string;
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
 * Runs `start` at most once per member and key: a repeat with the same arguments replays the first success, a
 * call with the same key but another tool or other arguments is refused, and a call that finds the key held by
 * a running call polls every {@link IDEMPOTENCY_POLL_MS} ms until that call finishes or its own deadline fires.
 * The claim follows the handler, not the answer: a handler that finishes after its deadline still completes the
 * record (so a retry replays it); a failed handler releases the claim. Failure: `conflict` /
 * `IDEMPOTENCY_KEY_REUSED`; otherwise whatever `start` or the scope throws.
 */
export async function runIdempotent(
  call: IdempotentCall,
  start: () => Promise<ToolSuccess>,
): Promise<IdempotentOutcome> {
  const argsHash = hashArguments(call.tool, call.args);
  const { store, memberId, key, scope } = call;
  for (;;) {
    if (scope.signal.aborted) throw scope.signal.reason as Error;
    const claim = await store.claim(memberId, key, call.tool, argsHash, call.ttlMs);
    switch (claim.state) {
      case 'claimed': {
        const work = start();
        work
          .then(
            (success) => store.complete(memberId, key, success),
            () => store.release(memberId, key),
          )
          .catch((error: unknown) => {
            call.logger.error(
              { err: error, memberId, tool: call.tool },
              'idempotency record could not be updated',
            );
          });
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
