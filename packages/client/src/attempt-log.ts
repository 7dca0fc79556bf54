/**
 * The attempt log: one record per attempt of a call, carried on every result and failure.
 *
 * @packageDocumentation
 */

/** How one attempt ended. */
export type AttemptOutcome =
  | 'ok'
  | 'tool_failure'
  | 'protocol_error'
  | 'version_mismatch'
  | 'timeout'
  | 'cancelled'
  | 'transport'
  | 'input_failed'
  | 'sign_in_required';

/** One attempt of a call: what was tried, how it ended, how long it took and how long was waited before it. */
export interface AttemptRecord {
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The server name the attempt went to (the client's `name`). */
  readonly server: string;
  readonly tool: string;
  readonly outcome: AttemptOutcome;
  /** Epoch milliseconds when the attempt started. */
  readonly startedAt: number;
  readonly durationMs: number;
  /** Milliseconds waited (backoff) before this attempt; 0 for the first. */
  readonly waitBeforeMs: number;
  /** The failure code: a Recourse failure code, a JSON-RPC code, or a local code. */
  readonly code?: string | number;
  /** The failure category, when the server sent one or it could be guessed. */
  readonly category?: string;
  /**
   * For failures: whether the attempt may have had an effect on the server. False when it was never sent, was
   * refused before any work (HTTP 4xx or 503, a JSON-RPC refusal before dispatch such as -32602) or the tool
   * reported `changed: false`.
   */
  readonly mayHaveReachedServer?: boolean;
  /** The protocol version the attempt used, when known. */
  readonly protocolVersion?: string;
}
