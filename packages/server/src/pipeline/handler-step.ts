/**
 * Pipeline steps 6 and 7: the handler runs under the call's deadline and cancellation.
 *
 * @packageDocumentation
 */
import type { Logger } from '../logger.ts';
import type { ToolContext, ToolDefinition, ToolSuccess } from '../contract.ts';
import type { CallScope } from '../call-scope.ts';

/**
 * Starts the handler. The returned promise is the handler's own: it settles when the handler does, which may be
 * after the call was answered (a handler that ignores its signal). Synchronous throws become rejections.
 */
export function startHandler(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolSuccess> {
  try {
    return Promise.resolve(tool.handler(args, ctx));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * Waits for `work` or for the call's signal, whichever comes first: on the deadline or a cancellation it rejects
 * with the abort reason right away, even when the handler ignores its signal.
 */
export function raceScope<T>(work: Promise<T>, scope: CallScope): Promise<T> {
  if (scope.signal.aborted) return Promise.reject(scope.signal.reason as Error);
  return Promise.race([
    work,
    scope.aborted.then((reason) => {
      throw reason;
    }),
  ]);
}

/**
 * Logs what a handler does after its call was answered on the deadline or a cancellation: a late success at info
 * level, a late error (other than the abort reason itself) at warn level, so that it is not lost.
 */
export function watchLateOutcome(work: Promise<unknown>, scope: CallScope, logger: Logger): void {
  work.then(
    () => {
      if (scope.signal.aborted)
        logger.info({ changed: scope.changed }, 'handler finished after the call was answered');
    },
    (error: unknown) => {
      if (scope.signal.aborted && error !== scope.signal.reason) {
        logger.warn({ err: error, changed: scope.changed }, 'handler failed after the call was answered');
      }
    },
  );
}
