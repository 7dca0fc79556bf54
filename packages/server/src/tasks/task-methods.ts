/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` on a fresh SDK server, answered by the {@link TaskRuntime} for
 * the caller the host verified on this very request.
 *
 * @packageDocumentation
 */
import { hasTaskClientCapabilityV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { ProtocolError, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Principal } from '../contract.ts';
import type { TaskRuntime } from './task-runtime.ts';
import { detailedTask } from './task-wire.ts';
import { TASKS_EXTENSION_ID } from './tasks-extension.ts';

/** JSON-RPC code of a missing client capability (2026-07-28). */
export const MISSING_CLIENT_CAPABILITY = -32021;

/** Whether this request declared the tasks extension in its per-request client capabilities. */
export function declaresTasks(ctx: ServerContext): boolean {
  // The SDK lifts the 2026-07-28 envelope keys out of `_meta` into `envelope`; look at both.
  return hasTaskClientCapabilityV2({ _meta: { ...ctx.mcpReq._meta, ...ctx.mcpReq.envelope } });
}

/** The -32021 error for a request that needs the tasks extension but did not declare it. */
export function tasksExtensionRequired(what: string): ProtocolError {
  return new ProtocolError(
    MISSING_CLIENT_CAPABILITY,
    `${what} needs the tasks extension (${TASKS_EXTENSION_ID}), which this request did not declare. Declare it ` +
      `in _meta["io.modelcontextprotocol/clientCapabilities"].extensions and send the request again; nothing ` +
      `was done.`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } },
  );
}

const taskIdParams = z.looseObject({ taskId: z.string().min(1).max(200) });
const updateParams = z.looseObject({
  taskId: z.string().min(1).max(200),
  inputResponses: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Registers the three task methods and declares the extension on `server`. Every request must declare the
 * extension (-32021 otherwise) and is answered only for the task's own creator (-32602 for anyone else, as for an
 * unknown or expired id). `principalOf` gives the caller of this request (checked again where the host does so).
 */
export function registerTaskMethods(
  server: McpServer,
  runtime: TaskRuntime,
  principalOf: () => Promise<Principal | undefined>,
): void {
  const low = server.server;
  low.registerCapabilities({ extensions: { [TASKS_EXTENSION_ID]: {} } });
  const caller = async (method: string, ctx: ServerContext): Promise<string> => {
    if (!declaresTasks(ctx)) throw tasksExtensionRequired(method);
    // Without a caller no task is theirs: the runtime answers -32602 as for an unknown id.
    return (await principalOf())?.id ?? '';
  };
  low.setRequestHandler('tasks/get', { params: taskIdParams }, async (params, ctx) => {
    const ownerId = await caller('tasks/get', ctx);
    return { resultType: 'complete', ...detailedTask(await runtime.view(params.taskId, ownerId)) };
  });
  low.setRequestHandler('tasks/update', { params: updateParams }, async (params, ctx) => {
    const ownerId = await caller('tasks/update', ctx);
    // The SDK lifts well-formed `inputResponses` out of the params into the context (and drops malformed ones).
    const responses = ctx.mcpReq.inputResponses ?? params.inputResponses ?? {};
    await runtime.update(params.taskId, ownerId, responses);
    return { resultType: 'complete' };
  });
  low.setRequestHandler('tasks/cancel', { params: taskIdParams }, async (params, ctx) => {
    const ownerId = await caller('tasks/cancel', ctx);
    await runtime.cancel(params.taskId, ownerId);
    return { resultType: 'complete' };
  });
}
