/**
 * The public contract of @recourse/server: how a tool is declared and what a host needs.
 * Implementations live in their own files; this file holds only types shared across them.
 *
 * @packageDocumentation
 */
import type { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Logger } from './logger.ts';

/**
 * Who is calling: resolved from a verified token (HTTP) or the configured identity (stdio). A server without
 * authentication has none; its tools then see {@link ANONYMOUS_PRINCIPAL}.
 */
export interface Principal {
  /** Stable id of the caller; rate limits, idempotency keys and cancellations are scoped by it. */
  readonly id: string;
  /** How failure texts name the caller, e.g. `Ada (u_1)` (default: the id alone). */
  readonly name?: string;
  /** The role a {@link PermissionPolicy} checks; a caller without one holds no permission. */
  readonly role?: string;
  /**
   * The id of the credential the caller was verified with (e.g. a token's record id; never the token itself),
   * so that a long-lived connection can check it again on every call. Optional; set by the token verifier.
   */
  readonly credentialId?: string;
  /**
   * Set when the credential was refused before the connection started (stdio started with a missing, unknown,
   * revoked or expired token): the connection still serves the protocol, and every tool call is refused with
   * `permission` / `CREDENTIAL_REFUSED` saying why, so that the client and the model learn it.
   */
  readonly refused?: TokenRefusal;
  /** The application's own facts about the caller (e.g. a kind or a team); the kit never reads them. */
  readonly attributes?: Readonly<Record<string, unknown>>;
}

/** The principal a handler sees when the host knows no caller (a server without authentication). */
export const ANONYMOUS_PRINCIPAL: Principal = Object.freeze({ id: 'anonymous' });

/** Maps roles to permissions; the pipeline's permission step asks it. */
export interface PermissionPolicy {
  /** Whether `role` holds `permission` (possibly with conditions the tool's handler checks itself). */
  allows(role: string, permission: string): boolean;
  /** The roles that hold `permission`, in a stable order, for refusal messages. */
  rolesGranting(permission: string): readonly string[];
}

/** MCP tool annotations, as hints to clients (all optional). */
export interface ToolHints {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What a handler gets besides its validated arguments. */
export interface ToolContext {
  /** The caller ({@link ANONYMOUS_PRINCIPAL} when the host knows none). */
  readonly principal: Principal;
  /** Fires on client cancellation (any transport) or on the tool's deadline; `reason` says which. */
  readonly signal: AbortSignal;
  /** The id under which this call is logged; failures carry it. */
  readonly correlationId: string;
  /** Epoch milliseconds by which the handler must finish. */
  readonly deadlineAt: number;
  readonly logger: Logger;
  /** The idempotency key the caller sent, when the tool accepts one. */
  readonly idempotencyKey?: string;
  /** Sends a progress notification when the caller asked for progress; a no-op otherwise. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Runs a write only while the call is still live: throws the abort reason when the signal has fired,
   * otherwise runs `work` and records that something changed (so a later deadline failure says so).
   * Keep `work` synchronous (one SQLite transaction), or make it one asynchronous transaction that is passed
   * the signal and refuses to commit once it fired: such work counts as a change only once it succeeded (a
   * failed transaction rolled back), so a deadline that finds it still pending, or a failed transaction,
   * says that nothing was changed.
   */
  commit<T>(work: () => T): T;
  /**
   * Present only when the call runs as a task (tasks extension): the task's id, and `input` to park the task in
   * `input_required` until the client answers through `tasks/update`. `progress` then sets the task's
   * `statusMessage`, and `signal` also fires on `tasks/cancel`.
   */
  readonly task?: TaskRunContext;
}

/** What a handler running as a task can do besides the usual context; see {@link ToolContext.task}. */
export interface TaskRunContext {
  readonly taskId: string;
  /** Asks the client for input (`elicitation/create` and the like, by unique key); resolves with the answers. */
  input(requests: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/**
 * How a tool runs as a task of the tasks extension (`io.modelcontextprotocol/tasks`). A client that declared the
 * extension on the request gets a task; one that did not gets the result inline within `deadlineMs` (`optional`)
 * or JSON-RPC -32021 (`required`).
 */
export interface TaskSupport {
  readonly support: 'optional' | 'required';
  /** Deadline of the work when it runs as a task (default 10 minutes); the inline deadline stays `deadlineMs`. */
  readonly deadlineMs?: number;
}

/** How much of the redactor a successful result's text goes through; see {@link ToolDefinition.successRedaction}. */
export type SuccessRedaction = 'secrets' | 'all' | 'none';

/** What a handler returns on success: a text for the model and, optionally, structured data. */
export interface ToolSuccess {
  readonly text: string;
  readonly structuredContent?: Record<string, unknown>;
}

/**
 * A tool declared once: the kit wraps its handler in the pipeline (principal, permission, rate limit,
 * validation, idempotency, deadline and cancellation, mapping).
 */
export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title?: string;
  /** Tells a model what the tool does, how its arguments look and which tool to use instead. */
  readonly description: string;
  /** A strict zod object; unknown keys are refused with a validation failure. */
  readonly input: Input;
  readonly annotations: ToolHints;
  /**
   * The permission the caller's role must hold, e.g. `tasks:create`, checked when the server has a
   * `permissions` policy. Without one (or on a server without a policy) anyone who may connect may call it.
   */
  readonly permission?: string;
  /**
   * Which redaction rules a successful result's text passes through (default: the server's
   * `successRedaction`, itself `'secrets'`): `'secrets'` removes credentials only (tokens, keys, JWTs, passwords,
   * connection-string credentials) and keeps the tool's own data such as paths and host names; `'all'` applies
   * every rule that failure texts get; `'none'` passes the text through. Failure texts always get every rule.
   */
  readonly successRedaction?: SuccessRedaction;
  /** Rate-limit cost of one call (default 1). */
  readonly cost?: number;
  /** Deadline in milliseconds (default: the server's, 10 000). */
  readonly deadlineMs?: number;
  /** Whether the tool accepts an `idempotencyKey` argument and replays repeats. */
  readonly idempotent?: boolean;
  /** Whether and how the tool may run as a task (default: never, always inline). */
  readonly task?: TaskSupport;
  readonly handler: (args: z.infer<Input>, ctx: ToolContext) => Promise<ToolSuccess>;
}

/** Declares a tool with its input type inferred; returns the definition unchanged. */
export function defineTool<Input extends z.ZodObject>(
  definition: ToolDefinition<Input>,
): ToolDefinition<Input> {
  return definition;
}

/** Why a bearer token was refused; each becomes HTTP 401 (with `error="invalid_token"` unless none was sent). */
export type TokenRefusal = 'missing' | 'unknown' | 'revoked' | 'expired';

/**
 * Checks again, for one call, who a long-lived connection's caller is: the principal as it is now (a changed role
 * or name), or why its credential no longer holds. Used on stdio, where the credential was verified once at
 * start-up (HTTP verifies the token on every request). Should cost one indexed lookup; a rejection becomes an
 * `internal` failure of that call.
 */
export type PrincipalRecheck = (
  principal: Principal,
) => Promise<Principal | { readonly refused: TokenRefusal }>;

/** Verifies bearer tokens for the HTTP host. */
export interface TokenVerifier {
  verify(token: string): Promise<{ ok: true; principal: Principal } | { ok: false; reason: TokenRefusal }>;
}

/** One finished tool call as recorded in the call log; never holds argument values. */
export interface CallLogEntry {
  readonly at: string;
  /** The caller's {@link Principal.id}, or null when the host knew no caller. */
  readonly principalId: string | null;
  readonly tool: string;
  /** `ok` or a failure category. */
  readonly outcome: 'ok' | import('@recourse/core').FailureCategory;
  /** The failure code, or null on success. */
  readonly code: string | null;
  readonly durationMs: number;
  readonly correlationId: string;
}

/** A finished tool call as a {@link CallObserver} sees it: no caller, no arguments. */
export interface ObservedCall {
  /** The tool's name, or `unknown` for a name the server does not serve. */
  readonly tool: string;
  readonly outcome: CallLogEntry['outcome'];
  readonly code: string | null;
  readonly durationMs: number;
  /** True when an idempotency key replayed an earlier result. */
  readonly replayed: boolean;
}

/**
 * Watches tool calls (e.g. to count them for metrics). Must not throw. Every `callStarted` is followed by one
 * `callEnded`; `callFinished` comes before it for every call that got a result (and a call-log entry).
 */
export interface CallObserver {
  callStarted(tool: string): void;
  callFinished(call: ObservedCall): void;
  callEnded(tool: string): void;
}

/** Where the pipeline records every tool call (an application may store them; `createMemoryCallLog` keeps them in memory). */
export interface CallLogSink {
  record(entry: CallLogEntry): void | Promise<void>;
}

/**
 * The state of an idempotency key as seen by {@link IdempotencyStore.claim}. `claimed` carries the claim's
 * `lease` id (when the store keeps leases), which {@link IdempotencyStore.complete} and `release` check, so that
 * a call whose claim was taken over after its lease expired cannot complete or drop the new claim.
 */
export type IdempotencyClaim =
  | { readonly state: 'claimed'; readonly lease?: string }
  | { readonly state: 'pending' }
  | { readonly state: 'done'; readonly argsHash: string; readonly result: ToolSuccess }
  | { readonly state: 'mismatch' };

/**
 * Durable records of idempotent writes, scoped per caller and key. `claim` is atomic: of two concurrent
 * claims for one key exactly one gets `claimed`. A pending claim holds a lease of `leaseMs` (default: the whole
 * `ttlMs`): once it expired without a result (the server that held it crashed), the next claim with the same
 * tool and arguments takes it over and is `claimed`.
 */
export interface IdempotencyStore {
  claim(
    principalId: string,
    key: string,
    tool: string,
    argsHash: string,
    ttlMs: number,
    leaseMs?: number,
  ): Promise<IdempotencyClaim>;
  /** Stores the first success of a claim; ignored when `lease` is given and the claim is no longer held by it. */
  complete(principalId: string, key: string, result: ToolSuccess, lease?: string): Promise<void>;
  /** Drops a claim whose call failed, so that a later attempt may run (only the claim held by `lease`, if given). */
  release(principalId: string, key: string, lease?: string): Promise<void>;
  /**
   * Optional: runs `work` (the handler, whose own writes join this transaction) and stores its success as the
   * claim's result in one database transaction, so that a crash at any point leaves either nothing (the lease
   * expires and a retry runs the work) or the write together with a result to replay. Rejects with what `work`
   * threw (nothing committed), or with a `transient` `IDEMPOTENCY_LEASE_LOST` failure when the claim was taken
   * over meanwhile (nothing committed).
   */
  completeAtomically?(
    principalId: string,
    key: string,
    lease: string,
    work: () => Promise<ToolSuccess>,
  ): Promise<ToolSuccess>;
}

/** Which transport leg a fresh SDK server instance serves. */
export type TransportLeg = 'http-legacy' | 'http-modern' | 'stdio';

/** Builds a fresh SDK server for one HTTP request (or one stdio connection), bound to its caller. */
export type McpServerFactory = (ctx: {
  principal: Principal | undefined;
  transport: TransportLeg;
}) => McpServer;

/** Cancels a running call by its caller and JSON-RPC request id (for the HTTP 2025 stateless leg). */
export interface CallCanceller {
  /** Returns true when a running call was found and its signal fired. */
  cancel(principalId: string, requestId: string | number, reason: string): boolean;
  /**
   * Cancels every running call on the server's behalf (e.g. at the end of a drain); each caller gets a
   * `CALL_CANCELLED` result naming `reason`. Returns how many calls were cancelled.
   */
  cancelAll?(reason: string): number;
}

/** What the hosts need from a Recourse server: a per-request SDK server factory and a canceller. */
export interface RecourseServer {
  readonly createMcpServer: McpServerFactory;
  readonly inflight: CallCanceller;
  readonly tools: readonly ToolDefinition[];
}
