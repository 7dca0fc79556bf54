/**
 * Client mistakes in a request's params, answered as the client's mistake in one sentence. The SDK validates
 * every request against the protocol's schema before its handler runs, but words a failure as zod's issue list
 * (a multi-line JSON dump), and for most methods (e.g. `initialize` with `capabilities: null`, `tools/list` with a
 * numeric cursor) throws it as a plain `Error`, which goes out as -32603 Internal error. This wraps every request
 * handler of a server so that such a failure becomes -32602 Invalid params naming the field, the value received
 * and what would be accepted, e.g. "Invalid initialize request: `params.capabilities` is null; expected an
 * object." Errors of any other kind pass through unchanged.
 *
 * @packageDocumentation
 */
import { describeIssue } from '@recourse/core';
import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import type { z } from 'zod';

type Handler = (request: { method: string; params?: unknown }, ctx: unknown) => Promise<unknown>;

/** The SDK's wording of a failed request validation: an optional prefix, then zod's issues as JSON. */
const VALIDATION_PREFIX = /^(?:Invalid [\w/.-]+ request: |Invalid params for [\w/.-]+: )?(?=\[)/;

/** The zod issues of an SDK request-validation failure, or undefined for any other error. */
export function requestIssuesOf(error: unknown): z.core.$ZodIssue[] | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error instanceof ProtocolError && error.code !== (ProtocolErrorCode.InvalidParams as number))
    return undefined;
  const prefix = VALIDATION_PREFIX.exec(error.message);
  if (prefix === null) return undefined;
  try {
    const issues = JSON.parse(error.message.slice(prefix[0].length)) as unknown;
    if (!Array.isArray(issues) || issues.length === 0) return undefined;
    const shaped = issues.every(
      (issue: unknown) =>
        issue !== null &&
        typeof issue === 'object' &&
        Array.isArray((issue as { path?: unknown }).path) &&
        typeof (issue as { message?: unknown }).message === 'string',
    );
    return shaped ? (issues as z.core.$ZodIssue[]) : undefined;
  } catch {
    return undefined;
  }
}

/** One sentence for the first issue of a `method` request (its path is relative to the request). */
export function paramsError(
  method: string,
  request: unknown,
  issues: readonly z.core.$ZodIssue[],
): ProtocolError {
  const first = issues[0];
  if (first === undefined)
    return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${method} request.`);
  const text = describeIssue(first, request);
  const what = text.field === '' ? 'the request' : `\`${text.field}\``;
  const more =
    issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid ${method} request: ${what} is ${text.received ?? 'missing'}; expected ${text.expected}${more}.`,
    { field: text.field },
  );
}

/**
 * Wraps every request handler registered on `server` so far (call it once all are registered) so that a failed
 * validation of the request's params answers -32602 with one sentence instead of the SDK's issue dump.
 */
export function clarifyParamErrors(server: Server): void {
  // The SDK offers no public way to list or wrap registered handlers; `_requestHandlers` is its map of them.
  const handlers = (server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, ctx) => {
      try {
        return await handler(request, ctx);
      } catch (error) {
        const issues = requestIssuesOf(error);
        throw issues === undefined ? error : paramsError(method, request, issues);
      }
    });
  }
}
