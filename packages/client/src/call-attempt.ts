/**
 * One attempt of a tool call under the deadline: send, classify, log, and follow a -32022 to a supported
 * version once. An unsafe call whose connection failed after the request may have reached the server ends
 * as `ambiguous` instead of a plain transport failure.
 *
 * @packageDocumentation
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import type { CallToolRequestOptions, CallToolResult, Client } from '@modelcontextprotocol/client';
import type { AttemptOutcome, AttemptRecord } from './attempt-log.ts';
import { classifyResult, classifyThrown, mayHaveTakenEffect } from './classify.ts';
import { chooseVersion } from './connection.ts';
import type { Connection } from './connection.ts';
import { AttemptWatch } from './attempt-watch.ts';
import type { Deadline } from './deadline.ts';
import { LocalCallError, ProtocolCallError } from './errors.ts';
import type { CallProgress } from './progress-routes.ts';
import type { RecourseCallError } from './errors.ts';
import { ATTEMPT_HEADER } from './http-exchange.ts';
import type { HttpExchange } from './http-exchange.ts';

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
  readonly onProgress: ((progress: CallProgress) => void) | undefined;
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

/** The JSON-RPC code of a request whose `Mcp-Param-*` headers do not match its tool's declarations. */
const HEADER_MISMATCH = -32020;

/** Sends the call on `client` under `watch`; the exchange is marked sent (nothing of it left before this). */
function callOn(
  client: Client,
  plan: AttemptPlan,
  exchange: HttpExchange,
  watch: AttemptWatch,
  tag: string | undefined,
  progressToken: string | undefined,
): Promise<CallToolResult> {
  exchange.signal = watch.signal;
  exchange.sent = true;
  const options: CallToolRequestOptions = {
    signal: watch.signal,
    // The SDK's own timer only backs up the attempt's (which always fires first, at the hard maximum at the latest).
    timeout: Math.max(1, plan.deadline.hardAt - Date.now()) + 1000,
  };
  if (tag !== undefined) options.headers = { [ATTEMPT_HEADER]: tag };
  const params =
    progressToken === undefined
      ? { name: plan.tool, arguments: plan.args }
      : { name: plan.tool, arguments: plan.args, _meta: { progressToken } };
  const definition = plan.connection.toolDefinition(client, plan.tool);
  if (definition === undefined) return client.callTool(params, options);
  options.toolDefinition = definition;
  const sending = client.callTool(params, options);
  // Only requests that carry HTTP headers can be refused for them.
  if (!plan.connection.mirrorsHeaders(client)) return sending;
  return sending.catch((error: unknown) => {
    // The server's tool now wants headers its listed definition did not declare, and it refused the request
    // before running the tool. The SDK's own path (without a definition) lists the tools again and resends.
    if (!(error instanceof ProtocolError && error.code === HEADER_MISMATCH)) throw error;
    plan.connection.forgetToolDefinitions(client);
    delete options.toolDefinition;
    return client.callTool(params, options);
  });
}

/** Opens the connection under `watch`; a failure records what the handshake's POSTs showed. */
async function connect(plan: AttemptPlan, exchange: HttpExchange, watch: AttemptWatch): Promise<Client> {
  try {
    return await watch.watch(plan.connection.client());
  } catch (error) {
    // What the handshake's POSTs showed (status, Retry-After) is what this attempt saw.
    if (watch.cause === undefined)
      Object.assign(exchange, plan.connection.exchanges?.untagged, { connectFailed: true });
    throw error;
  }
}

/** Appends attempt `n`'s record to the plan's log. */
function record(
  plan: AttemptPlan,
  n: number,
  startedAt: number,
  waitBeforeMs: number,
  protocolVersion: string | undefined,
  outcome: AttemptOutcome,
  error?: RecourseCallError,
): void {
  const entry: { -readonly [K in keyof AttemptRecord]: AttemptRecord[K] } = {
    attempt: n,
    server: plan.server,
    tool: plan.tool,
    outcome,
    startedAt,
    durationMs: Date.now() - startedAt,
    waitBeforeMs,
  };
  if (error !== undefined) {
    entry.code =
      error.kind === 'protocol'
        ? error.rpcCode
        : error.kind === 'tool'
          ? (error.failure?.code ?? error.code)
          : error.code;
    if (error.kind === 'tool' && error.category !== undefined) entry.category = error.category;
    entry.mayHaveReachedServer = mayHaveTakenEffect(error);
  }
  if (protocolVersion !== undefined) entry.protocolVersion = protocolVersion;
  plan.log.push(entry);
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
  // Every field the attempt sets later is there from the start: one shape, no property store grown per call.
  const exchange: HttpExchange = { mayHaveReachedServer: false, sent: false, signal: undefined };
  const { connection } = plan;
  const ready = connection.ready;
  const watch = new AttemptWatch(
    connection.timer,
    plan.deadline,
    plan.signal,
    connection.takesLightSignals(ready),
    plan.onProgress,
  );
  let client: Client | undefined;
  let protocolVersion: string | undefined;
  let value: CallToolResult | undefined;
  let failed = false;
  let thrown: unknown;
  try {
    if (watch.cause === undefined) client = ready ?? (await connect(plan, exchange, watch));
    // The attempt ended before or while connecting: it was classified as not sent, so it must stay unsent.
    if (watch.cause !== undefined || client === undefined) throw watch.signal.reason;
    protocolVersion = client.getNegotiatedProtocolVersion();
    const exchanges = connection.exchanges;
    const tag = exchanges?.open(exchange);
    // A token costs the server a check on every request, so it goes out only when progress would do anything.
    const progressToken = watch.usesProgress ? connection.progress.open(watch) : undefined;
    connection.acquire(client);
    try {
      value = await watch.watch(callOn(client, plan, exchange, watch, tag, progressToken));
    } finally {
      connection.release(client);
      if (progressToken !== undefined) connection.progress.close(progressToken);
      if (tag !== undefined) exchanges?.close(tag);
    }
    // An answer that raced the abort does not count: the attempt was given up.
    if (watch.cause !== undefined) throw watch.signal.reason;
  } catch (error) {
    failed = true;
    thrown = error;
  } finally {
    watch.end();
  }
  if (!failed && value !== undefined) {
    const failure = classifyResult(value, plan.server, plan.tool);
    if (!failure) {
      record(plan, n, startedAt, waitBeforeMs, protocolVersion, 'ok');
      return value;
    }
    record(plan, n, startedAt, waitBeforeMs, protocolVersion, outcomeOf(failure), failure);
    throw failure;
  }
  let error = classifyThrown(thrown, {
    server: plan.server,
    tool: plan.tool,
    abortCause: watch.cause,
    exchange,
    deadlineMs: plan.deadline.timeoutMs,
    maxTimeoutMs: plan.deadline.maxTimeoutMs,
  });
  if (error instanceof ProtocolCallError && error.rpcCode === -32022) {
    const supported = (error.data as { supported?: unknown } | undefined)?.supported;
    const version = Array.isArray(supported) ? chooseVersion(supported) : undefined;
    if (!plan.renegotiated && version !== undefined) {
      plan.renegotiated = true;
      record(plan, n, startedAt, waitBeforeMs, protocolVersion, 'version_mismatch', error);
      connection.repin(version, client);
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
  record(plan, n, startedAt, waitBeforeMs, protocolVersion, outcomeOf(error), error);
  throw error;
}
