/**
 * The options of {@link RecourseClient} and of each call, and what a call resolves with.
 *
 * @packageDocumentation
 */
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/client';
import type { AttemptRecord } from './attempt-log.ts';
import type { BreakerOptions } from './breakers.ts';
import type { CallProgress } from './progress-routes.ts';
import type { ProtocolMode, ServerTarget } from './connection.ts';
import type { RecourseCallError } from './errors.ts';
import type { InputHandlers } from './input-handlers.ts';
import type { RetryOptions } from './retry-policy.ts';
import type { ToolTraits } from './tool-catalog.ts';
import type { TaskCallOptions, TaskPolicy } from './tasks/task-calls.ts';
// For the {@link} references in the comments below.
import type { RecourseClient } from './recourse-client.ts';

/** Where to send a call when its tool's breaker is open. */
export interface FallbackRoute {
  /** The alternative tool. */
  readonly tool: string;
  /** The client of the server that has it (default: the same client). */
  readonly client?: RecourseClient;
  /** Maps the original arguments to the alternative's (default: unchanged). */
  readonly mapArguments?: (args: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * Options of {@link createRecourseClient}. The input handlers (`onElicitation`, `onSampling`, `onListRoots`)
 * answer the server's input requests in both eras; each needs its capability in `capabilities`, and each declared
 * input capability needs its handler (else the constructor throws `INVALID_CLIENT_OPTIONS`).
 */
export interface RecourseClientOptions extends InputHandlers {
  /** The server: `{ url, token? }`, `{ stdio: { command, args } }`, or `{ transport: () => Transport }`. */
  readonly target: ServerTarget;
  /** Name of the server in attempt logs and events (default: the URL's host or the command). */
  readonly name?: string;
  /** Protocol era (default `'auto'`: probe with `server/discover`, fall back to `initialize`). */
  readonly protocol?: ProtocolMode;
  /** Milliseconds without an answer or progress before a call times out (default 30 000). */
  readonly timeoutMs?: number;
  /** Hard maximum of a call however much progress arrives (default 4 × `timeoutMs`). */
  readonly maxTimeoutMs?: number;
  /** Retry settings (default 3 attempts, 100 ms initial backoff, 5 s maximum). */
  readonly retry?: RetryOptions;
  /** Breaker settings per tool (default 5 consecutive faults, half-open after 10 s); `false` disables. */
  readonly breaker?: BreakerOptions | false;
  /** Concurrency cap per server (default 16 running, 64 queued); `false` disables. */
  readonly bulkhead?: { readonly maxConcurrent?: number; readonly maxQueue?: number } | false;
  /** Alternatives per tool, used while the tool's breaker is open. */
  readonly fallbacks?: Readonly<Record<string, FallbackRoute>>;
  /** Traits per tool that override what `tools/list` says (e.g. `{ readOnly: true }`). */
  readonly tools?: Readonly<Record<string, ToolTraits>>;
  /** Capabilities declared to the server (default none), e.g. `{ elicitation: { form: { applyDefaults: true } } }`. */
  readonly capabilities?: ClientCapabilities;
  /**
   * Task-backed calls (HTTP targets): how a tool that may run as a task is polled (see `TaskPolicy`), or `false`
   * to call every tool inline. Default: enabled with the default policy.
   */
  readonly tasks?: TaskPolicy | false;
}

/** Options of one call. */
export interface CallOptions {
  /** Overrides the client's `timeoutMs`. */
  readonly timeoutMs?: number;
  /** Overrides the client's `maxTimeoutMs`. */
  readonly maxTimeoutMs?: number;
  /** Cancels the call; it then fails with `cancelled`, never `timeout`. */
  readonly signal?: AbortSignal;
  /** Overrides the client's retry settings for this call. */
  readonly retry?: RetryOptions;
  /** Receives the server's progress notifications. */
  readonly onProgress?: (progress: CallProgress) => void;
  /** An idempotency key to use instead of a generated one (for tools that advertise one). */
  readonly idempotencyKey?: string;
  /**
   * Task options (persist the reference in `onCreated`, see progress in `onStatus`, override the policy). Given,
   * the call declares the tasks extension, so the server may answer with a task; so does a tool whose traits say
   * `task` (from `tools/list` in 2025-11-25, or from the `tools` option). `false` calls the tool inline.
   */
  readonly task?: TaskCallOptions | false;
}

/** A successful call: the result and how it was obtained. */
export interface CallSuccess {
  readonly result: CallToolResult;
  /** The server and tool that answered (the fallback's when rerouted). */
  readonly server: string;
  readonly tool: string;
  readonly attempts: readonly AttemptRecord[];
  /** Set when the call was rerouted to a fallback because the original tool's breaker was open. */
  readonly reroutedFrom?: { readonly server: string; readonly tool: string; readonly reason: 'circuit_open' };
  /** The task that produced the result, when the server ran the call as a task. */
  readonly taskId?: string;
}

/** The outcome of {@link RecourseClient.tryCallTool}: never rejects with a call failure. */
export type CallOutcome =
  | { readonly ok: true; readonly value: CallSuccess }
  | { readonly ok: false; readonly error: RecourseCallError };
