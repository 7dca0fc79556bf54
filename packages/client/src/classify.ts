/**
 * Classifies what one attempt produced into exactly one kind of failure: a tool failure (remote `isError`),
 * a protocol error (remote JSON-RPC error, also when hidden in an HTTP body), or a local error.
 *
 * @packageDocumentation
 */
import { decodeFailure, guessCategory, resultText } from '@recourse/core';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { LocalCallError, ProtocolCallError, ToolCallFailedError } from './errors.ts';
import type { LocalCallFailure, RecourseCallError } from './errors.ts';
import type { HttpExchange } from './http-exchange.ts';
import { INPUT_HANDLER_FAILED } from './input-handlers.ts';

/**
 * Why this client aborted an attempt itself, if it did: the deadline passed without an answer or progress,
 * the hard maximum passed however much progress arrived, or the caller aborted.
 */
export type AbortCause = 'deadline' | 'hard_maximum' | 'user' | undefined;

/** What is known about the attempt besides the error. */
export interface AttemptContext {
  readonly server: string;
  readonly tool: string;
  readonly abortCause: AbortCause;
  readonly exchange: HttpExchange | undefined;
  /** Deadline in ms, for the timeout message. */
  readonly deadlineMs: number;
  /** Hard maximum in ms, for the timeout message when it is what ended the call. */
  readonly maxTimeoutMs: number;
}

interface RpcErrorBody {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** Parses a JSON-RPC error response out of an HTTP body, if it is one. */
export function parseRpcErrorBody(text: unknown): RpcErrorBody | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const error = parsed.error;
    if (!error || typeof error.code !== 'number' || !Number.isInteger(error.code)) return undefined;
    return {
      code: error.code,
      message: typeof error.message === 'string' ? error.message : '',
      data: error.data,
    };
  } catch {
    return undefined;
  }
}

/**
 * How servers built on other stacks say they have no such tool: the v1 SDK answers `isError` with "MCP error
 * -32602: Tool X not found"; fastmcp answers -32601 "Unknown tool: X"; others word it "Unknown tool: X".
 */
const UNKNOWN_TOOL_TEXT =
  /^(?:MCP error -3260[12]: )?(?:Tool ['"]?(\S+?)['"]? not found|Unknown tool:? ['"]?([^\s'".]+))/i;

/** The unknown-tool failure, the same whichever shape the server used; `said` is the server's own text. */
function unknownTool(server: string, tool: string, said: string, cause?: unknown): ProtocolCallError {
  return new ProtocolCallError({
    server,
    tool,
    cause,
    rpcCode: -32602,
    data: { tool },
    unknownTool: true,
    message: `Unknown tool: ${tool} on ${server} (it answered "${said.replace(/[.\s]+$/, '')}"). The call was not run and nothing was changed; call tools/list to see the tools available.`,
  });
}

/** True when `text` says the server has no tool named `tool`. */
function saysUnknownTool(text: string, tool: string): boolean {
  const match = UNKNOWN_TOOL_TEXT.exec(text.trim());
  return match !== null && (match[1] ?? match[2]) === tool;
}

/**
 * Turns a result into a failure when it is an `isError` result, else undefined: a {@link ToolCallFailedError}
 * whose message is every text part of the result (core's `resultText`), the text its category is guessed from,
 * or the unknown-tool {@link ProtocolCallError} when a server without failure data says it has no such tool.
 */
export function classifyResult(
  result: CallToolResult,
  server: string,
  tool: string,
): ToolCallFailedError | ProtocolCallError | undefined {
  if (result.isError !== true) return undefined;
  const failure = decodeFailure(result);
  if (!failure && saysUnknownTool(resultText(result), tool))
    return unknownTool(server, tool, resultText(result));
  const category = failure?.category ?? guessCategory(result);
  const text = resultText(result) || `Tool ${tool} failed without a text.`;
  return new ToolCallFailedError({ server, tool, message: text, category, failure, result });
}

function errorField(error: unknown, field: string): unknown {
  return typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[field] : undefined;
}

function retryAdvice(status: number | undefined, retryAfterMs: number | undefined): string {
  if (status !== undefined && status >= 400 && status < 500 && status !== 429) {
    return 'Retrying unchanged will not help; check the URL and the credentials.';
  }
  return retryAfterMs === undefined
    ? 'Retrying later may help.'
    : `Retrying after ${retryAfterMs} ms may help.`;
}

/**
 * The caller aborted, or a limit passed, while this client was still connecting: the call itself was never
 * sent, so it cannot have had an effect.
 */
function notConnectedYet(
  ctx: AttemptContext,
  base: { server: string; tool: string; cause: unknown },
): LocalCallFailure {
  if (ctx.abortCause === 'user') {
    return new LocalCallError({
      ...base,
      reason: 'cancelled',
      mayHaveReachedServer: false,
      message: `The call of ${ctx.tool} was cancelled by the caller while this client was still connecting to ${ctx.server}; the call was not sent, so nothing was changed.`,
    });
  }
  const limit =
    ctx.abortCause === 'hard_maximum'
      ? `hard maximum of ${String(ctx.maxTimeoutMs)} ms`
      : `${String(ctx.deadlineMs)} ms deadline`;
  return new LocalCallError({
    ...base,
    reason: 'timeout',
    mayHaveReachedServer: false,
    message: `The call of ${ctx.tool} ran out of its ${limit} before this client had connected to ${ctx.server}, so the call was not sent and nothing was changed. Check that the server is running and reachable; retrying with a longer timeout helps if it is only slow to start.`,
  });
}

/**
 * The server answered 401 and the OAuth provider could not get a usable access token: the stored one was refused,
 * refreshing it was refused (a revoked grant, an expired refresh token) or there was none, so a person must sign
 * in again. The server refused the request before running anything.
 */
function signInRequired(
  ctx: AttemptContext,
  base: { server: string; tool: string; cause: unknown },
  said: string,
): LocalCallFailure {
  return new LocalCallError({
    ...base,
    reason: 'sign_in_required',
    mayHaveReachedServer: false,
    httpStatus: 401,
    message: `${ctx.server} refused the credentials for the call of ${ctx.tool} (HTTP 401) and they could not be refreshed (${said.replace(/[.!?]+$/, '')}): the grant was revoked, has expired, or this client never signed in. The call was not run, so nothing was changed. Sign in again (recourse call --sign-in, or signIn() in code) and repeat the call; retrying without signing in will not help.`,
  });
}

/** JSON-RPC codes a server answers before it dispatches the call to the tool. */
const REFUSED_BEFORE_DISPATCH = new Set([-32700, -32600, -32601, -32602, -32002, -32020, -32021, -32022]);

/**
 * Whether a failed attempt may have had an effect on the server: false when it was never sent, was refused
 * before any work (HTTP 4xx or 503, a JSON-RPC refusal before dispatch) or the tool said nothing changed.
 */
export function mayHaveTakenEffect(error: RecourseCallError): boolean {
  if (error instanceof LocalCallError) return error.mayHaveReachedServer;
  if (error instanceof ToolCallFailedError) return error.failure?.changed !== false;
  if (error instanceof ProtocolCallError) {
    const status = error.httpStatus;
    if (status !== undefined && ((status >= 400 && status < 500) || status === 503)) return false;
    return !REFUSED_BEFORE_DISPATCH.has(error.rpcCode);
  }
  return true;
}

const NOT_SENT_SDK_CODES = new Set(['NOT_CONNECTED', 'ERA_NEGOTIATION_FAILED', 'SEND_FAILED']);

/** Classifies an error the SDK threw for one attempt. */
export function classifyThrown(error: unknown, ctx: AttemptContext): RecourseCallError {
  const base = { server: ctx.server, tool: ctx.tool, cause: error };
  const code = errorField(error, 'code');
  const timedOutInSdk = code === 'REQUEST_TIMEOUT';
  if (
    (ctx.abortCause !== undefined || timedOutInSdk) &&
    ctx.exchange !== undefined &&
    ctx.exchange.sent !== true
  ) {
    return notConnectedYet(ctx, base);
  }
  if (ctx.abortCause === 'user') {
    return new LocalCallError({
      ...base,
      reason: 'cancelled',
      mayHaveReachedServer: true,
      message: `The call of ${ctx.tool} was cancelled by the caller; the server was told to stop. It may have done part of its work.`,
    });
  }
  if (ctx.abortCause === 'hard_maximum') {
    return new LocalCallError({
      ...base,
      reason: 'timeout',
      mayHaveReachedServer: true,
      message: `The call of ${ctx.tool} kept reporting progress but did not finish within its hard maximum of ${ctx.maxTimeoutMs} ms and was cancelled; it may have done part of its work. Retry with a larger maxTimeoutMs if the tool is this slow.`,
    });
  }
  if (ctx.abortCause === 'deadline' || timedOutInSdk) {
    return new LocalCallError({
      ...base,
      reason: 'timeout',
      mayHaveReachedServer: true,
      message: `The call of ${ctx.tool} got no answer within its ${ctx.deadlineMs} ms deadline and was cancelled; it may have done part of its work. Retry with a longer timeout if the tool is slow.`,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (code === INPUT_HANDLER_FAILED) {
    return new LocalCallError({
      ...base,
      reason: 'input_failed',
      mayHaveReachedServer: true,
      message: `The call of ${ctx.tool} failed in this client: ${message.replace(/[.!?]+$/, '')}. The server got no answer, so the tool did not finish; what it did before asking may have taken effect. Retrying will not help until the handler answers; to refuse an elicitation, return { action: 'decline' } instead of throwing.`,
    });
  }
  if (errorField(error, 'name') === 'UnauthorizedError' || code === 'CLIENT_HTTP_AUTHENTICATION') {
    return signInRequired(ctx, base, message);
  }
  if (typeof code === 'number' && Number.isInteger(code)) {
    if ((code === -32601 || code === -32602) && saysUnknownTool(message, ctx.tool)) {
      return unknownTool(ctx.server, ctx.tool, message, error);
    }
    return new ProtocolCallError({ ...base, rpcCode: code, data: errorField(error, 'data'), message });
  }
  const data = errorField(error, 'data') as { status?: unknown; text?: unknown } | undefined;
  const status = typeof data?.status === 'number' ? data.status : ctx.exchange?.status;
  const retryAfterMs = ctx.exchange?.retryAfterMs;
  const rpc = parseRpcErrorBody(data?.text);
  if (rpc) {
    return new ProtocolCallError({
      ...base,
      rpcCode: rpc.code,
      data: rpc.data,
      message: rpc.message,
      httpStatus: status,
      retryAfterMs,
    });
  }
  const refusedBeforeWork = status === 429 || status === 503;
  const reached =
    !refusedBeforeWork &&
    ctx.exchange?.connectFailed !== true &&
    !(typeof code === 'string' && NOT_SENT_SDK_CODES.has(code)) &&
    (ctx.exchange?.observed === true ? ctx.exchange.mayHaveReachedServer : true);
  const statusText = status === undefined ? '' : ` (HTTP ${status})`;
  return new LocalCallError({
    ...base,
    reason: 'transport',
    mayHaveReachedServer: reached,
    httpStatus: status,
    retryAfterMs,
    message: `The connection failed while calling ${ctx.tool}${statusText}: ${message.replace(/[.!?]+$/, '')}. ${
      reached
        ? 'The request may have reached the server, so it may have taken effect.'
        : 'The request did not reach the tool; nothing was changed.'
    } ${retryAdvice(status, retryAfterMs)}`,
  });
}
