/**
 * The {@link ToolContext} a handler gets: caller, signal, deadline, logger, progress and the commit guard.
 *
 * @packageDocumentation
 */
import type { Logger } from '../logger.ts';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { Principal, ToolContext } from '../contract.ts';
import type { CallScope } from '../call-scope.ts';

/** What {@link createToolContext} needs. */
export interface ToolContextSource {
  readonly principal: Principal;
  readonly scope: CallScope;
  readonly correlationId: string;
  readonly logger: Logger;
  readonly sdk: ServerContext;
  readonly idempotencyKey?: string;
}

/**
 * Builds a handler's context. `progress` sends `notifications/progress` only when the request carried a
 * progress token and the call is still running; a failed notification is logged, never thrown.
 */
export function createToolContext(source: ToolContextSource): ToolContext {
  const { scope, sdk, logger } = source;
  const token = sdk.mcpReq._meta?.progressToken;
  return {
    principal: source.principal,
    signal: scope.signal,
    correlationId: source.correlationId,
    deadlineAt: scope.deadlineAt,
    logger,
    ...(source.idempotencyKey === undefined ? {} : { idempotencyKey: source.idempotencyKey }),
    async progress(progress, total, message) {
      if (token === undefined || scope.signal.aborted) return;
      try {
        await sdk.mcpReq.notify({
          method: 'notifications/progress',
          params: {
            progressToken: token,
            progress,
            ...(total === undefined ? {} : { total }),
            ...(message === undefined ? {} : { message }),
          },
        });
      } catch (error) {
        logger.debug({ err: error }, 'progress notification could not be sent');
      }
    },
    commit: (work) => scope.commit(work),
  };
}
