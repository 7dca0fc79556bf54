/**
 * The one failure type of a call: a tool failure, a protocol error, or a local error, each with the attempt log.
 *
 * @packageDocumentation
 */
import type { FailureCategory, FailureData } from '@recourse/core';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { AttemptRecord } from './attempt-log.ts';

/** Where a failure came from: the tool (remote `isError`), the protocol (remote JSON-RPC error), or this client. */
export type CallFailureKind = 'tool' | 'protocol' | 'local';

/** The local failures: none of them was sent by the server. */
export type LocalFailureReason =
  | 'timeout'
  | 'cancelled'
  | 'transport'
  | 'circuit_open'
  | 'bulkhead_full'
  | 'ambiguous'
  | 'input_failed'
  | 'sign_in_required';

/** Stable codes of {@link RecourseCallError}, one per kind of failure. */
export const CALL_ERROR_CODES = {
  tool: 'CALL_TOOL_FAILED',
  protocol: 'CALL_PROTOCOL_ERROR',
  timeout: 'CALL_TIMEOUT',
  cancelled: 'CALL_CANCELLED',
  transport: 'CALL_TRANSPORT',
  circuit_open: 'CALL_CIRCUIT_OPEN',
  bulkhead_full: 'CALL_BULKHEAD_FULL',
  ambiguous: 'CALL_AMBIGUOUS',
  input_failed: 'CALL_INPUT_FAILED',
  sign_in_required: 'CALL_SIGN_IN_REQUIRED',
} as const;

/** One of the values of {@link CALL_ERROR_CODES}. */
export type CallErrorCode = (typeof CALL_ERROR_CODES)[keyof typeof CALL_ERROR_CODES];

interface BaseInit {
  readonly server: string;
  readonly tool: string;
  readonly message: string;
  readonly attempts?: readonly AttemptRecord[];
  readonly cause?: unknown;
}

/** What every call failure has, whatever its kind. The public type is the union {@link RecourseCallError}. */
abstract class CallFailureBase extends Error {
  abstract readonly kind: CallFailureKind;
  abstract readonly code: CallErrorCode;
  readonly server: string;
  readonly tool: string;
  /** Every attempt made, in order, with its outcome, timing and the wait before it. */
  attempts: readonly AttemptRecord[];

  constructor(init: BaseInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.server = init.server;
    this.tool = init.tool;
    this.attempts = init.attempts ?? [];
  }

  /** Whether the same call may succeed later unchanged (retry advice for callers above the client). */
  abstract get retryable(): boolean;
}

/** The tool ran and reported a failure (`isError`). `failure` is the server's `ToolFailure` when it sent one. */
export class ToolCallFailedError extends CallFailureBase {
  override readonly name = 'ToolCallFailedError';
  readonly kind = 'tool';
  readonly code = CALL_ERROR_CODES.tool;
  /** The category the server sent, or a best-effort guess from the text when it sent none. */
  readonly category: FailureCategory;
  /** The parsed failure metadata, when the server sent it. */
  readonly failure: FailureData | undefined;
  /** The result as received. */
  readonly result: CallToolResult;

  constructor(
    init: BaseInit & { category: FailureCategory; failure: FailureData | undefined; result: CallToolResult },
  ) {
    super(init);
    this.category = init.category;
    this.failure = init.failure;
    this.result = init.result;
  }

  get retryable(): boolean {
    if (this.failure) return this.failure.retryable;
    return this.category === 'transient' || this.category === 'rate_limit';
  }

  /** When the server asked to wait before retrying, in milliseconds. */
  get retryAfterMs(): number | undefined {
    return this.failure?.retryAfterMs;
  }
}

/** The server answered with a JSON-RPC error (also when it came in an HTTP body with a non-400 status). */
export class ProtocolCallError extends CallFailureBase {
  override readonly name = 'ProtocolCallError';
  readonly kind = 'protocol';
  readonly code = CALL_ERROR_CODES.protocol;
  /** The JSON-RPC error code, e.g. -32602. */
  readonly rpcCode: number;
  readonly data: unknown;
  /** The HTTP status it came with, when it came over HTTP with a non-200 status. */
  readonly httpStatus: number | undefined;
  /** -32002 (older servers' "resource not found") is read as `not_found`. */
  readonly notFound: boolean;
  /**
   * The server does not have the tool: a -32602 naming it (`data.tool`), and the same failure recognised from
   * other servers' shapes (a v1 SDK `isError` "MCP error -32602: Tool X not found", a -32601 "Unknown tool: X"),
   * which this client reports as -32602 too. Call `tools/list` to see what the server has.
   */
  readonly unknownTool: boolean;
  /** From a `Retry-After` header, when the server sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    init: BaseInit & {
      rpcCode: number;
      data?: unknown;
      httpStatus?: number | undefined;
      retryAfterMs?: number | undefined;
      unknownTool?: boolean;
    },
  ) {
    super(init);
    this.rpcCode = init.rpcCode;
    this.unknownTool =
      init.unknownTool ??
      (init.rpcCode === -32602 && typeof (init.data as { tool?: unknown } | undefined)?.tool === 'string');
    this.data = init.data;
    this.httpStatus = init.httpStatus;
    this.notFound = init.rpcCode === -32002;
    const dataWait = (init.data as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
    this.retryAfterMs =
      init.retryAfterMs ?? (typeof dataWait === 'number' && dataWait >= 0 ? dataWait : undefined);
  }

  get retryable(): boolean {
    return this.httpStatus === 429 || this.httpStatus === 503;
  }
}

/**
 * A failure of this client or the connection; the server sent none of it. `R` is its `reason`, and `code`
 * follows it (`timeout` → `CALL_TIMEOUT`, …), so narrowing on either narrows both.
 */
export class LocalCallError<R extends LocalFailureReason = LocalFailureReason> extends CallFailureBase {
  override readonly name = 'LocalCallError';
  readonly kind = 'local';
  readonly code: (typeof CALL_ERROR_CODES)[R];
  readonly reason: R;
  /** Whether the request may have reached the server (and so may have had an effect). */
  readonly mayHaveReachedServer: boolean;
  /** HTTP status, for transport failures that had one (e.g. 503). */
  readonly httpStatus: number | undefined;
  /** From a `Retry-After` header, when the server sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    init: BaseInit & {
      reason: R;
      mayHaveReachedServer?: boolean;
      httpStatus?: number | undefined;
      retryAfterMs?: number | undefined;
    },
  ) {
    super(init);
    this.reason = init.reason;
    this.code = CALL_ERROR_CODES[init.reason];
    this.mayHaveReachedServer = init.mayHaveReachedServer ?? false;
    this.httpStatus = init.httpStatus;
    this.retryAfterMs = init.retryAfterMs;
  }

  get retryable(): boolean {
    if (this.reason === 'transport') {
      return this.httpStatus === undefined || this.httpStatus >= 500 || this.httpStatus === 429;
    }
    return this.reason === 'circuit_open' || this.reason === 'bulkhead_full';
  }
}

/** A local failure, one member per `reason`, so `error.reason === 'timeout'` narrows `error.code` too. */
export type LocalCallFailure = { [R in LocalFailureReason]: LocalCallError<R> }[LocalFailureReason];

/**
 * Every failure `RecourseClient.callTool` throws: a discriminated union on `kind` (`'tool'`, `'protocol'`,
 * `'local'`), and for local failures on `reason`. Narrowing needs no casts:
 *
 * ```ts
 * if (error.kind === 'tool') error.category;          // ToolCallFailedError
 * else if (error.kind === 'protocol') error.rpcCode;  // ProtocolCallError
 * else if (error.reason === 'transport') error.mayHaveReachedServer;
 * ```
 *
 * Recognise one with {@link isRecourseCallError} (by `code`, so it works across package copies).
 */
export type RecourseCallError = ToolCallFailedError | ProtocolCallError | LocalCallFailure;

/**
 * The common base class of the three failure classes, for `instanceof` within one copy of this package
 * (prefer {@link isRecourseCallError}, which narrows to the union).
 */
export const RecourseCallError: abstract new (...args: never[]) => CallFailureBase = CallFailureBase;

const CODES: ReadonlySet<string> = new Set(Object.values(CALL_ERROR_CODES));

/** True for any {@link RecourseCallError}, recognised by its `code` so it works across package copies. */
export function isRecourseCallError(error: unknown): error is RecourseCallError {
  return error instanceof Error && CODES.has((error as { code?: unknown }).code as string);
}

/**
 * Thrown by a call on a client after `close()`: a programming error, not a call failure, so it is never
 * retried, never counted by a breaker and never a {@link RecourseCallError}. Code `CLIENT_CLOSED`.
 */
export class ClientClosedError extends Error {
  override readonly name = 'ClientClosedError';
  readonly code = 'CLIENT_CLOSED';

  constructor(server: string) {
    super(`The Recourse client of ${server} was closed; create a new client to call its tools again.`);
  }
}
