/**
 * Running tool calls by caller and JSON-RPC request id, so that a host can cancel a call that its own
 * transport cannot reach (the 2025 stateless HTTP leg delivers `notifications/cancelled` to a fresh instance).
 *
 * @packageDocumentation
 */
import type { Logger } from './logger.ts';
import type { CallCanceller } from './contract.ts';

/** Something a registry can cancel: a call scope. */
export interface Cancellable {
  /** `byServer`: the server stopped the call (shutting down), not its caller. */
  cancel(reason: string, byServer?: boolean): void;
}

/** A {@link CallCanceller} that the pipeline fills: every running call is registered until it completes. */
export interface InflightRegistry extends CallCanceller {
  /** Registers a running call; the returned function removes it (call it when the call completes). */
  register(principalId: string, requestId: string | number, call: Cancellable): () => void;
  /** How many calls are running. */
  readonly size: number;
  cancelAll(reason: string): number;
}

function keyOf(principalId: string, requestId: string | number): string {
  return `${principalId}\u0000${typeof requestId}:${String(requestId)}`;
}

/**
 * Creates an empty in-flight registry.
 *
 * `cancel` fires the call's signal only when exactly one running call of that caller has that request id:
 * two clients of one caller can reuse an id, and cancelling the wrong write would be worse than letting the
 * call run to its deadline (that case is logged at warn level and returns false).
 */
export function createInflightRegistry(logger?: Logger): InflightRegistry {
  const calls = new Map<string, Set<Cancellable>>();
  let size = 0;
  return {
    register(principalId, requestId, call) {
      const key = keyOf(principalId, requestId);
      let set = calls.get(key);
      if (set === undefined) {
        set = new Set();
        calls.set(key, set);
      }
      set.add(call);
      size += 1;
      let removed = false;
      return () => {
        if (removed) return;
        removed = true;
        size -= 1;
        set.delete(call);
        if (set.size === 0 && calls.get(key) === set) calls.delete(key);
      };
    },
    cancel(principalId, requestId, reason) {
      const set = calls.get(keyOf(principalId, requestId));
      if (set === undefined || set.size === 0) return false;
      if (set.size > 1) {
        logger?.warn(
          { principalId, requestId, running: set.size },
          'cancellation matches several running calls of one caller; none was cancelled',
        );
        return false;
      }
      for (const call of set) call.cancel(reason);
      return true;
    },
    cancelAll(reason) {
      let count = 0;
      for (const set of calls.values()) {
        for (const call of set) {
          call.cancel(reason, true);
          count += 1;
        }
      }
      if (count > 0) logger?.warn({ count, reason }, 'every running call cancelled');
      return count;
    },
    get size() {
      return size;
    },
  };
}
