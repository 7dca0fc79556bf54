/**
 * One attempt of a tool call under the deadline: send, classify, log, and follow a -32022 to a supported
 * version once. An unsafe call whose connection failed after the request may have reached the server ends
 * as `ambiguous` instead of a plain transport failure.
 *
 * @packageDocumentation
 */
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { AttemptOutcome, AttemptRecord } from './attempt-log.ts';
import { classifyResult, classifyThrown, mayHaveTakenEffect } from './classify.ts';
import { chooseVersion } from './connection.ts';
import type { Connection } from './connection.ts';
import { runUnderDeadline } from './deadline.ts';
import type { Deadline } from './deadline.ts';
import { LocalCallError, ProtocolCallError } from './errors.ts';
import type { RecourseCallError } from './errors.ts';
import { ATTEMPT_HEADER } from './http-exchange.ts';
import type { HttpExchange } from './http-exchange.ts';

/** A progress notification as the caller sees it. */
export interface CallProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** Everything one attempt needs. */
export interface AttemptPlan {
  readonly server: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly connection: Connection;
  readonly deadline: Deadline;
  readonly signal: AbortSignal | undefined;
  /** Whether repeating the call is safe (read-only, idempotent, or keyed). */
  readonly safe: boolean;
  readonly log: AttemptRecord[];
  readonly onProgress?: (progress: CallProgress) => void;
  /** Set once the call has followed a -32022; a second one is not followed. */
  renegotiated: boolean;
}

function outcomeOf(error: RecourseCallError): AttemptOutcome {
  if (error instanceof LocalCallError) {
    const { reason } = error;
    return reason === 'cancelled' ||
      reason === 'timeout' ||
      reason === 'input_failed' ||
      reason === 'sign_in_required'
      ? reason
      : 'transport';
  }
  return error.kind === 'tool' ? 'tool_failure' : 'protocol_error';
}

async function send(
  plan: AttemptPlan,
  exchange: HttpExchange,
  used: { client?: Client; version?: string | undefined },
  signal: AbortSignal,
  onProgress: () => void,
): Promise<CallToolResult> {
  let client: Client;
  try {
    client = await plan.connection.client();
  } catch (error) {
    // What the handshake's POSTs showed (status, Retry-After) is what this attempt saw.
    Object.assign(exchange, plan.connection.exchanges?.untagged, { connectFailed: true });
    throw error;
  }
  // The attempt ended while connecting: it was classified as not sent, so it must stay unsent.
  if (signal.aborted) throw signal.reason;
  used.client = client;
  used.version = client.getNegotiatedProtocolVersion();
  exchange.signal = signal;
  exchange.sent = true;
  exchange.mayHaveReachedServer = false;
  exchange.observed = false;
  delete exchange.status;
  const sdkTimeout = Math.max(1, plan.deadline.hardAt - Date.now()) + 1000;
  const exchanges = plan.connection.exchanges;
  const tag = exchanges?.open(exchange);
  try {
    return await plan.connection.using(client, () =>
      callOn(client, plan, signal, onProgress, sdkTimeout, tag),
    );
  } finally {
    if (tag !== undefined) exchanges?.close(tag);
  }
}

/**
 * The SDK reports each round of a 2026-07-28 `input_required` flow as a progress of its own making. It is not
 * the server's progress: it neither extends the deadline (which covers every round) nor reaches the caller.
 */
const INPUT_ROUND_PROGRESS = /^Fulfilling input required by '[^']+' \(round \d+\)$/;

function callOn(
  client: Client,
  plan: AttemptPlan,
  signal: AbortSignal,
  onProgress: () => void,
  sdkTimeout: number,
  tag: string | undefined,
): Promise<CallToolResult> {
  return client.callTool(
    { name: plan.tool, arguments: plan.args },
    {
      signal,
      ...(tag === undefined ? {} : { headers: { [ATTEMPT_HEADER]: tag } }),
      timeout: sdkTimeout,
      resetTimeoutOnProgress: true,
      onprogress: (p) => {
        if (p.total === undefined && INPUT_ROUND_PROGRESS.test(p.message ?? '')) return;
        onProgress();
        plan.onProgress?.({
          progress: p.progress,
          ...(p.total === undefined ? {} : { total: p.total }),
          ...(p.message === undefined ? {} : { message: p.message }),
        });
      },
    },
  );
}

function ambiguous(error: LocalCallError): LocalCallError<'ambiguous'> {
  return new LocalCallError({
    server: error.server,
    tool: error.tool,
    reason: 'ambiguous',
    mayHaveReachedServer: true,
    cause: error,
    message: `The connection failed after the call of ${error.tool} may have reached the server, so it may or may not have taken effect. It was not repeated because repeating it is not known to be safe. Check the server's state (for example with a read-only tool) before calling again.`,
  });
}

/**
 * Runs attempt `n`. Resolves with the result on success; rejects with the classified failure, after
 * appending one record (two when a -32022 was followed) to `plan.log`.
 */
export async function runAttempt(
  plan: AttemptPlan,
  n: number,
  waitBeforeMs: number,
): Promise<CallToolResult> {
  const startedAt = Date.now();
  const exchange: HttpExchange = { mayHaveReachedServer: false };
  const used: { client?: Client; version?: string | undefined } = {};
  const outcome = await runUnderDeadline(plan.deadline, plan.signal, (signal, onProgress) =>
    send(plan, exchange, used, signal, onProgress),
  );
  const protocolVersion = used.version;
  const record = (result: AttemptOutcome, error?: RecourseCallError): void => {
    const code =
      error?.kind === 'protocol'
        ? error.rpcCode
        : error?.kind === 'tool'
          ? (error.failure?.code ?? error.code)
          : error?.code;
    const category = error?.kind === 'tool' ? error.category : undefined;
    const reached = error === undefined ? undefined : mayHaveTakenEffect(error);
    plan.log.push({
      attempt: n,
      server: plan.server,
      tool: plan.tool,
      outcome: result,
      startedAt,
      durationMs: Date.now() - startedAt,
      waitBeforeMs,
      ...(code === undefined ? {} : { code }),
      ...(category === undefined ? {} : { category }),
      ...(reached === undefined ? {} : { mayHaveReachedServer: reached }),
      ...(protocolVersion === undefined ? {} : { protocolVersion }),
    });
  };
  if (outcome.ok) {
    const failure = classifyResult(outcome.value, plan.server, plan.tool);
    if (!failure) {
      record('ok');
      return outcome.value;
    }
    record(outcomeOf(failure), failure);
    throw failure;
  }
  let error = classifyThrown(outcome.error, {
    server: plan.server,
    tool: plan.tool,
    abortCause: outcome.abortCause,
    exchange,
    deadlineMs: plan.deadline.timeoutMs,
    maxTimeoutMs: plan.deadline.maxTimeoutMs,
  });
  if (error instanceof ProtocolCallError && error.rpcCode === -32022) {
    const supported = (error.data as { supported?: unknown } | undefined)?.supported;
    const version = Array.isArray(supported) ? chooseVersion(supported) : undefined;
    if (!plan.renegotiated && version !== undefined) {
      plan.renegotiated = true;
      record('version_mismatch', error);
      plan.connection.repin(version, used.client);
      return runAttempt(plan, n, 0);
    }
  }
  if (
    error instanceof LocalCallError &&
    error.reason === 'transport' &&
    error.mayHaveReachedServer &&
    !plan.safe
  ) {
    error = ambiguous(error);
  }
  record(outcomeOf(error), error);
  throw error;
}
