/**
 * One helper per failure category, each building a {@link ToolFailure} with the category's retry semantics:
 * `validation`, `not_found`, `conflict`, `permission` and `business` are never retryable; `rate_limit` and
 * `transient` are, after `retryAfterMs`; `internal` is retryable only when the caller says so.
 *
 * @packageDocumentation
 */
import { ToolFailure, type FailureCategory, type FailureData } from './failure.ts';
import { redactNamedValue } from './redact.ts';
import { formatWait } from './failure-text.ts';

/** Options shared by every helper. `changed` defaults to `false` (nothing was changed). */
export interface FailureOptions {
  /** Stable SCREAMING_SNAKE code; each helper has a default. */
  readonly code?: string;
  /** One sentence: what failed, naming the wrong value. */
  readonly message: string;
  /** What would be accepted, as a fragment (`one of low, normal, high`) or a sentence. */
  readonly expected?: string;
  /** The next step or tool that can help, as a sentence. */
  readonly next?: string;
  /** `false` (default) when nothing changed; `true` or a count when part of the work was done. */
  readonly changed?: boolean | number;
  /** The id under which the server logged the call. */
  readonly correlationId?: string;
  /** The underlying error, kept on the `ToolFailure` for the server log; never sent. */
  readonly cause?: unknown;
}

/** Builds a failure, dropping optional fields that are absent (exact optional property types). */
function build(
  category: FailureCategory,
  defaults: { code: string; retryable: boolean },
  options: FailureOptions,
  extra: Partial<FailureData> = {},
): ToolFailure {
  const data: FailureData = {
    category,
    code: options.code ?? defaults.code,
    message: options.message,
    retryable: defaults.retryable,
    changed: options.changed ?? false,
    ...(options.expected !== undefined && { expected: options.expected }),
    ...(options.next !== undefined && { next: options.next }),
    ...(options.correlationId !== undefined && { correlationId: options.correlationId }),
    ...extra,
  };
  return new ToolFailure(data, options.cause === undefined ? undefined : { cause: options.cause });
}

/** Options of {@link invalidArgument}: the argument path and, when one was sent, the value received. */
export interface InvalidArgumentOptions extends Omit<FailureOptions, 'message'> {
  /** Argument path, e.g. `priority`, `labels[2]`, `due.date`. */
  readonly field: string;
  /** The raw value received; rendered truncated and redacted. Leave out when the argument was missing. */
  readonly received?: unknown;
  /** What would be accepted; required so that the model can fix the call. */
  readonly expected: string;
  /** Overrides the default message "Argument `field` is <value>; expected <expected>." */
  readonly message?: string;
}

/**
 * A `validation` failure for one argument (not retryable). Default code `INVALID_ARGUMENT`; the message
 * names the argument, the value received (truncated, redacted) and what is accepted.
 */
export function invalidArgument(options: InvalidArgumentOptions): ToolFailure {
  const hasValue = 'received' in options && options.received !== undefined;
  const name = options.field
    .split(/[.[\]]/)
    .filter(Boolean)
    .at(-1);
  const received = hasValue ? redactNamedValue(name, options.received) : undefined;
  const message =
    options.message ??
    (received !== undefined
      ? `Argument \`${options.field}\` is ${received}; expected ${options.expected}.`
      : `Argument \`${options.field}\` is missing; expected ${options.expected}.`);
  return build(
    'validation',
    { code: 'INVALID_ARGUMENT', retryable: false },
    { ...options, message },
    { field: options.field, ...(received !== undefined && { received }) },
  );
}

/** A `not_found` failure (not retryable). Default code `NOT_FOUND`; say which ref and how refs look. */
export function notFound(options: FailureOptions): ToolFailure {
  return build('not_found', { code: 'NOT_FOUND', retryable: false }, options);
}

/** A `conflict` failure, e.g. a stale version or a reused idempotency key (not retryable). Default code `CONFLICT`. */
export function conflict(options: FailureOptions): ToolFailure {
  return build('conflict', { code: 'CONFLICT', retryable: false }, options);
}

/** A `business` failure: a rule of the domain refused the call (not retryable). Default code `BUSINESS_RULE`. */
export function businessRule(options: FailureOptions): ToolFailure {
  return build('business', { code: 'BUSINESS_RULE', retryable: false }, options);
}

/** Options of {@link permissionDenied}. */
export interface PermissionDeniedOptions extends Omit<FailureOptions, 'message'> {
  /** The tool that was refused, e.g. `tasks_create`; used in the default message. */
  readonly tool?: string;
  /** The permission lacking, e.g. `tasks:create`. */
  readonly permission: string;
  /** The caller's role. */
  readonly role: string;
  /** The roles that hold the permission, in a stable order. */
  readonly grantedTo: readonly string[];
  /** Overrides the default message "Your role may not call <tool>." */
  readonly message?: string;
}

/**
 * A `permission` failure (not retryable). Default code `PERMISSION_DENIED`; the text names the permission,
 * the role held and the roles that hold it, and by default suggests asking for such a role.
 */
export function permissionDenied(options: PermissionDeniedOptions): ToolFailure {
  const what = options.tool !== undefined ? `call ${options.tool}` : 'do this';
  const message = options.message ?? `Your role ${options.role} may not ${what}.`;
  const next =
    options.next ??
    (options.grantedTo.length > 0
      ? 'Ask whoever administers this server for one of those roles, or leave this step to a caller who holds one.'
      : 'No role can do this at present; leave this step out of your plan.');
  return build(
    'permission',
    { code: 'PERMISSION_DENIED', retryable: false },
    { ...options, message, next },
    { permission: { missing: options.permission, role: options.role, grantedTo: [...options.grantedTo] } },
  );
}

/** Options of {@link rateLimited}. */
export interface RateLimitedOptions extends Omit<FailureOptions, 'message'> {
  /** How long until the call would be accepted, in milliseconds. */
  readonly retryAfterMs: number;
  /** The limit, in calls (or points) per window, for the default message. */
  readonly limit?: number;
  /** The window of the limit in milliseconds, for the default message. */
  readonly windowMs?: number;
  /** Overrides the default message "Too many calls: the limit is <limit> per <window>." */
  readonly message?: string;
}

/** A `rate_limit` failure (retryable after `retryAfterMs`). Default code `RATE_LIMITED`. */
export function rateLimited(options: RateLimitedOptions): ToolFailure {
  const limit =
    options.limit !== undefined && options.windowMs !== undefined
      ? ` the limit is ${options.limit} calls per ${formatWait(options.windowMs)}`
      : ' the rate limit was reached';
  const message = options.message ?? `Too many calls:${limit}.`;
  return build(
    'rate_limit',
    { code: 'RATE_LIMITED', retryable: true },
    { ...options, message },
    { retryAfterMs: Math.max(0, Math.ceil(options.retryAfterMs)) },
  );
}

/** Options of {@link transientFailure}. */
export interface TransientFailureOptions extends FailureOptions {
  /** When to try again, in milliseconds (default 1000). */
  readonly retryAfterMs?: number;
}

/** A `transient` failure: a timeout or an unavailable dependency (retryable). Default code `TRANSIENT_FAILURE`. */
export function transientFailure(options: TransientFailureOptions): ToolFailure {
  return build('transient', { code: 'TRANSIENT_FAILURE', retryable: true }, options, {
    retryAfterMs: Math.max(0, Math.ceil(options.retryAfterMs ?? 1000)),
  });
}

/** Options of {@link internalFailure}. */
export interface InternalFailureOptions {
  /** The tool (or resource, prompt) that was running. */
  readonly tool: string;
  /** The id under which the full error was logged. */
  readonly correlationId: string;
  /** Whether the same call may succeed later (default `false`). */
  readonly retryable?: boolean;
  /** When to try again, when retryable. */
  readonly retryAfterMs?: number;
  /** What changed before the failure (default `false`). */
  readonly changed?: boolean | number;
  /** Default code `INTERNAL_ERROR`. */
  readonly code?: string;
  /** The original error, for the server log; never sent. */
  readonly cause?: unknown;
}

/**
 * An `internal` failure with the standard text: "The server failed while running tasks_get. Nothing was
 * changed. Retrying unchanged will not help. The server logged this failure as c_…". Never carries any
 * detail of the original error; retryable only when `retryable` is true.
 */
export function internalFailure(options: InternalFailureOptions): ToolFailure {
  return build(
    'internal',
    { code: 'INTERNAL_ERROR', retryable: options.retryable ?? false },
    {
      message: `The server failed while running ${options.tool}.`,
      correlationId: options.correlationId,
      ...(options.code !== undefined && { code: options.code }),
      ...(options.changed !== undefined && { changed: options.changed }),
      ...(options.cause !== undefined && { cause: options.cause }),
    },
    options.retryable === true && options.retryAfterMs !== undefined
      ? { retryAfterMs: Math.max(0, Math.ceil(options.retryAfterMs)) }
      : {},
  );
}
