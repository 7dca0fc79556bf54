/**
 * What a service write needs from its caller: who is acting, and the guard that refuses writes after an abort.
 *
 * @packageDocumentation
 */
import type { Principal } from '@recourse/server';

/** The acting member and the write guard; a tool passes its `ToolContext`, the CLI {@link localWriteContext}. */
export interface WriteContext {
  readonly principal: Principal;
  /** Fires when the call was cancelled or ran out of time; writes are refused after it. */
  readonly signal?: AbortSignal;
  /** Runs `work` only while the call is live (the pipeline's `ctx.commit`). */
  commit<T>(work: () => T): T;
}

/** A write context for local, uncancellable callers such as the CLI. */
export function localWriteContext(principal: Principal): WriteContext {
  return { principal, commit: (work) => work() };
}
