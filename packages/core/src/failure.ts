/**
 * The one failure model of Recourse: every failure a tool reports is a {@link ToolFailure}.
 *
 * @packageDocumentation
 */

/** The eight categories a tool failure can fall into; retry semantics follow the category. */
export const FAILURE_CATEGORIES = [
  'validation',
  'not_found',
  'conflict',
  'permission',
  'rate_limit',
  'transient',
  'business',
  'internal',
] as const;

/** One of {@link FAILURE_CATEGORIES}. */
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

/** For `permission` failures: what was lacking, the caller's role, and the roles that hold it. */
export interface PermissionDetail {
  readonly missing: string;
  readonly role: string;
  readonly grantedTo: readonly string[];
}

/**
 * The data of a failure, as carried in `_meta["dev.recourse/failure"]` and used to build the model-facing text.
 *
 * `message` is one sentence naming what failed and the wrong value; the other fields add what is accepted,
 * the next step, retry advice and what changed. The rendered text always stands alone.
 */
export interface FailureData {
  readonly category: FailureCategory;
  /** Stable SCREAMING_SNAKE identifier, e.g. `TASK_NOT_FOUND`. */
  readonly code: string;
  /** One sentence: what failed, naming the value that was wrong. */
  readonly message: string;
  /** Argument path for validation failures, e.g. `priority` or `labels[2]`. */
  readonly field?: string;
  /** The value received (already truncated and redacted when built by the helpers). */
  readonly received?: string;
  /** What would be accepted, e.g. `one of low, normal, high`. */
  readonly expected?: string;
  /** The next step or tool that can help, as a sentence. */
  readonly next?: string;
  /** Whether the same call can succeed later unchanged. */
  readonly retryable: boolean;
  /** When to try again, in milliseconds (rate limits, transient faults). */
  readonly retryAfterMs?: number;
  /** `false` when nothing changed; `true` or a count when part of the work was done. */
  readonly changed: boolean | number;
  readonly permission?: PermissionDetail;
  /** The id under which the server logged the full error. */
  readonly correlationId?: string;
}

/** Error code of every {@link ToolFailure}; recognise failures by this code, not by `instanceof`. */
export const TOOL_FAILURE_CODE = 'RECOURSE_TOOL_FAILURE';

/**
 * A failure raised on purpose by a tool: the only kind of error whose text reaches the model as written.
 * Anything else a handler throws is mapped to an `internal` failure with a correlation id.
 *
 * A `ToolFailure` is an answer, not a fault, so it captures no stack frames (its `stack` is its first line):
 * capturing them cost more than building and encoding the rest of the failure, on a path (a missing record, a
 * refused permission) that a server takes as often as success. Its code and correlation id identify it; a
 * `cause` keeps its own stack.
 */
export class ToolFailure extends Error {
  override readonly name = 'ToolFailure';
  /** Always {@link TOOL_FAILURE_CODE}; the failure's own code is `failure.code`. */
  readonly code = TOOL_FAILURE_CODE;
  readonly failure: FailureData;

  constructor(failure: FailureData, options?: { cause?: unknown }) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(failure.message, options);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.failure = failure;
  }

  /** A copy of this failure with some fields replaced (e.g. a correlation id added by the pipeline). */
  with(patch: Partial<FailureData>): ToolFailure {
    return new ToolFailure({ ...this.failure, ...patch }, { cause: this.cause });
  }
}

/** True for a {@link ToolFailure}, recognised by its code so that it works across package copies. */
export function isToolFailure(error: unknown): error is ToolFailure {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === TOOL_FAILURE_CODE &&
    typeof (error as { failure?: unknown }).failure === 'object'
  );
}
