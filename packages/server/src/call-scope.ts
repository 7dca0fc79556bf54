/**
 * The live scope of one tool call: its deadline timer, its cancellation, and whether it changed anything.
 *
 * @packageDocumentation
 */

/** Thrown (as an abort reason) when a call runs past its deadline. Code `DEADLINE_EXCEEDED`. */
export class DeadlineExceededError extends Error {
  override readonly name = 'DeadlineExceededError';
  readonly code = 'DEADLINE_EXCEEDED';
  /** The deadline the call had, in milliseconds. */
  readonly deadlineMs: number;

  constructor(tool: string, deadlineMs: number) {
    super(`The call to ${tool} did not finish within its deadline of ${String(deadlineMs)} ms.`);
    this.deadlineMs = deadlineMs;
  }
}

/** Thrown (as an abort reason) when the caller cancelled a call. Code `CALL_CANCELLED`. */
export class CallCancelledError extends Error {
  override readonly name = 'CallCancelledError';
  readonly code = 'CALL_CANCELLED';
  /** The reason given for the cancellation. */
  readonly reason: string;
  /** Whether the server stopped the call (e.g. shutting down) rather than its caller. */
  readonly byServer: boolean;

  constructor(tool: string, reason: string, byServer = false) {
    super(`The call to ${tool} was cancelled by ${byServer ? 'the server' : 'the caller'} (${reason}).`);
    this.reason = reason;
    this.byServer = byServer;
  }
}

/** Options of {@link openCallScope}. */
export interface CallScopeOptions {
  readonly tool: string;
  /** Deadline of the call in milliseconds, counted from `startedAt`. */
  readonly deadlineMs: number;
  /** Epoch milliseconds when the call arrived (default: now). */
  readonly startedAt?: number;
  /** The SDK's request signal; its aborts count as caller cancellation until the scope is closed. */
  readonly upstream?: AbortSignal;
}

/** One call's signal, deadline and change tracking; see {@link openCallScope}. */
export interface CallScope {
  /** Fires once, on the deadline ({@link DeadlineExceededError}) or on cancellation ({@link CallCancelledError}). */
  readonly signal: AbortSignal;
  /** Epoch milliseconds by which the call must finish. */
  readonly deadlineAt: number;
  readonly deadlineMs: number;
  /**
   * Whether a {@link CallScope.commit} changed something: a synchronous commit once it returned, an
   * asynchronous one (one transaction) once it succeeded; a commit that threw or rejected changed nothing.
   */
  readonly changed: boolean;
  /** Resolves with the abort reason when the signal fires; never rejects. */
  readonly aborted: Promise<Error>;
  /** Throws the abort reason when the signal has fired; otherwise marks the call as changed and runs `work`. */
  commit<T>(work: () => T): T;
  /**
   * Cancels the call on behalf of the caller (e.g. from the in-flight registry), or of the server when `byServer`
   * (e.g. shutting down). Ignored once closed.
   */
  cancel(reason: string, byServer?: boolean): void;
  /** Stops the timer and detaches from the upstream signal: aborts after completion are ignored. */
  close(): void;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function describeReason(reason: unknown): string {
  if (typeof reason === 'string' && reason.length > 0) return reason;
  if (reason instanceof Error && reason.message.length > 0) return reason.message;
  return 'no reason given';
}

/**
 * Opens the scope of one call: the handler's single `AbortSignal` fires on the deadline, on the SDK's request
 * signal, or on {@link CallScope.cancel}, whichever comes first, and never after {@link CallScope.close}.
 */
export function openCallScope(options: CallScopeOptions): CallScope {
  const controller = new AbortController();
  const startedAt = options.startedAt ?? Date.now();
  const deadlineAt = startedAt + options.deadlineMs;
  let changed = false;
  let closed = false;
  let resolveAborted: (reason: Error) => void = () => undefined;
  const aborted = new Promise<Error>((resolve) => {
    resolveAborted = resolve;
  });

  const abort = (reason: Error): void => {
    if (closed || controller.signal.aborted) return;
    // Settle `aborted` first, so that a pipeline racing the handler answers with the abort even when the
    // handler reacts to its signal by returning at once.
    resolveAborted(reason);
    controller.abort(reason);
  };
  const onUpstreamAbort = (): void => {
    abort(new CallCancelledError(options.tool, describeReason(options.upstream?.reason)));
  };
  const timer = setTimeout(
    () => {
      abort(new DeadlineExceededError(options.tool, options.deadlineMs));
    },
    Math.max(0, deadlineAt - Date.now()),
  );
  if (options.upstream?.aborted === true) onUpstreamAbort();
  else options.upstream?.addEventListener('abort', onUpstreamAbort, { once: true });

  return {
    signal: controller.signal,
    deadlineAt,
    deadlineMs: options.deadlineMs,
    get changed() {
      return changed;
    },
    aborted,
    commit<T>(work: () => T): T {
      if (controller.signal.aborted) throw controller.signal.reason as Error;
      const result = work();
      if (!isThenable(result)) {
        changed = true;
        return result;
      }
      // Asynchronous work is one transaction that was given the signal and refuses to write once it fired: it
      // has changed something only once it succeeded. A failed transaction rolled back and changed nothing.
      result.then(
        () => {
          changed = true;
        },
        () => undefined,
      );
      return result;
    },
    cancel(reason: string, byServer = false): void {
      abort(new CallCancelledError(options.tool, reason, byServer));
    },
    close(): void {
      closed = true;
      clearTimeout(timer);
      options.upstream?.removeEventListener('abort', onUpstreamAbort);
    },
  };
}
