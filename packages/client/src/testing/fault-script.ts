/**
 * The faults the fault-injection server can play, and the per-tool queue that holds them.
 *
 * @packageDocumentation
 */
import type { FailureCategory } from '@recourse/core';

/**
 * One scripted fault. Faults are queued per tool and each is used by exactly one call, in order;
 * a call with no queued fault runs normally.
 */
export type Fault =
  /** Waits `ms` before running the tool normally. */
  | { readonly kind: 'latency'; readonly ms: number }
  /** Never answers; the server records the cancellation when the client gives up. */
  | { readonly kind: 'hang' }
  /** Answers an `isError` result carrying Recourse failure metadata of the given category. */
  | {
      readonly kind: 'tool_failure';
      readonly category: FailureCategory;
      readonly code?: string;
      readonly message?: string;
      readonly retryAfterMs?: number;
      readonly retryable?: boolean;
    }
  /** Answers an `isError` result with only a text, as servers built without Recourse do. */
  | { readonly kind: 'foreign_error'; readonly text: string }
  /** Answers a JSON-RPC error; `httpStatus` (default 200) lets it ride a non-400 HTTP status. */
  | {
      readonly kind: 'protocol_error';
      readonly code: number;
      readonly message?: string;
      readonly data?: unknown;
      readonly httpStatus?: number;
    }
  /** Answers a bare HTTP status (e.g. 429, 503) with an optional `Retry-After` in seconds. */
  | { readonly kind: 'http_status'; readonly status: number; readonly retryAfterSeconds?: number }
  /** Destroys the connection before the tool runs: the server did nothing. */
  | { readonly kind: 'drop_before' }
  /** Runs the tool, then destroys the connection instead of answering: the work is done, the answer lost. */
  | { readonly kind: 'drop_after' }
  /** Sends `steps` progress notifications `everyMs` apart, then answers normally. */
  | { readonly kind: 'progress'; readonly everyMs: number; readonly steps: number }
  /** Sends `steps` progress notifications `everyMs` apart, then stalls without answering. */
  | { readonly kind: 'stall_progress'; readonly everyMs: number; readonly steps: number }
  /** Answers HTTP 400 with JSON-RPC -32022 and `data.supported`. */
  | { readonly kind: 'unsupported_version'; readonly supported: readonly string[] };

/** The kind names of {@link Fault}. */
export type FaultKind = Fault['kind'];

const HTTP_LEVEL: ReadonlySet<FaultKind> = new Set<FaultKind>([
  'protocol_error',
  'http_status',
  'drop_before',
  'drop_after',
  'unsupported_version',
]);

/** True for faults the HTTP layer plays (before or around dispatch) rather than the tool handler. */
export function isHttpLevelFault(fault: Fault): boolean {
  return HTTP_LEVEL.has(fault.kind);
}

/** Per-tool FIFO queues of faults. */
export class FaultScript {
  readonly #queues = new Map<string, Fault[]>();

  /** Queues faults for the next calls of `tool`, in order. */
  push(tool: string, ...faults: readonly Fault[]): void {
    const queue = this.#queues.get(tool) ?? [];
    queue.push(...faults);
    this.#queues.set(tool, queue);
  }

  /** The next fault for `tool` without consuming it. */
  peek(tool: string): Fault | undefined {
    return this.#queues.get(tool)?.[0];
  }

  /** Consumes and returns the next fault for `tool`. */
  take(tool: string): Fault | undefined {
    return this.#queues.get(tool)?.shift();
  }

  /** How many faults are still queued for `tool` (all tools when omitted). */
  pending(tool?: string): number {
    if (tool !== undefined) return this.#queues.get(tool)?.length ?? 0;
    let total = 0;
    for (const queue of this.#queues.values()) total += queue.length;
    return total;
  }

  /** Drops every queued fault. */
  clear(): void {
    this.#queues.clear();
  }
}
