/**
 * Prometheus metrics of a Recourse server (prom-client): tool calls by tool and outcome, their latency, calls in
 * flight, idempotent replays, rate-limit refusals, HTTP refusals by status and database errors. Labels hold
 * tool names, outcome categories, HTTP statuses and refusal reasons only: never a member, a token or an
 * argument.
 *
 * @packageDocumentation
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CallObserver } from '../contract.ts';
import type { MetricsEndpoint } from '../http/operations-routes.ts';

/** Latency buckets of tool calls, in seconds (the default deadline is 10 s). */
export const CALL_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

/** A server's metrics: a {@link CallObserver} for the pipeline plus counters the hosts and stores feed. */
export interface ServerMetrics extends CallObserver {
  /** The prom-client registry holding every metric of this server. */
  readonly registry: Registry;
  /** Counts one refusal the HTTP host answered itself (`reason` is the host's short label, e.g. `flood`). */
  refused(status: number, reason: string): void;
  /** Counts one database error (`operation`: a short fixed word such as `query` or `connection`). */
  databaseError(operation: string): void;
  /** The `/metrics` endpoint of an HTTP host for this registry, behind `token`. */
  endpoint(token: string): MetricsEndpoint;
}

/** Options of {@link createServerMetrics}. */
export interface ServerMetricsOptions {
  /** Also export Node's process metrics (CPU, memory, event-loop lag); default true. */
  readonly processMetrics?: boolean;
}

/**
 * Creates the metrics of one server process in a registry of its own:
 * `recourse_tool_calls_total{tool,outcome}`, `recourse_tool_call_duration_seconds{tool}`,
 * `recourse_tool_calls_in_flight`, `recourse_idempotent_replays_total{tool}`,
 * `recourse_rate_limit_refusals_total{tool}`, `recourse_http_refusals_total{status,reason}` and
 * `recourse_database_errors_total{operation}`.
 */
export function createServerMetrics(options: ServerMetricsOptions = {}): ServerMetrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const calls = new Counter({
    name: 'recourse_tool_calls_total',
    help: 'Tool calls answered, by tool and outcome (ok or the failure category).',
    labelNames: ['tool', 'outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'recourse_tool_call_duration_seconds',
    help: 'Time from arrival to answer of tool calls, by tool.',
    labelNames: ['tool'] as const,
    buckets: [...CALL_DURATION_BUCKETS],
    registers: [registry],
  });
  const inFlight = new Gauge({
    name: 'recourse_tool_calls_in_flight',
    help: 'Tool calls running right now.',
    registers: [registry],
  });
  const replays = new Counter({
    name: 'recourse_idempotent_replays_total',
    help: 'Calls answered by replaying the result of an earlier call with the same idempotency key, by tool.',
    labelNames: ['tool'] as const,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'recourse_rate_limit_refusals_total',
    help: 'Tool calls refused by the per-member rate limit, by tool.',
    labelNames: ['tool'] as const,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'recourse_http_refusals_total',
    help: 'Requests the HTTP host refused itself (before any tool ran), by HTTP status and reason.',
    labelNames: ['status', 'reason'] as const,
    registers: [registry],
  });
  const databaseErrors = new Counter({
    name: 'recourse_database_errors_total',
    help: 'Errors from the database driver, by operation.',
    labelNames: ['operation'] as const,
    registers: [registry],
  });
  const render = async (): Promise<{ contentType: string; body: string }> => ({
    contentType: registry.contentType,
    body: await registry.metrics(),
  });
  return {
    registry,
    callStarted() {
      inFlight.inc();
    },
    callFinished(call) {
      calls.inc({ tool: call.tool, outcome: call.outcome });
      duration.observe({ tool: call.tool }, call.durationMs / 1000);
      if (call.replayed) replays.inc({ tool: call.tool });
      if (call.outcome === 'rate_limit') rateLimited.inc({ tool: call.tool });
    },
    callEnded() {
      inFlight.dec();
    },
    refused(status, reason) {
      refusals.inc({ status: String(status), reason });
    },
    databaseError(operation) {
      databaseErrors.inc({ operation });
    },
    endpoint(token) {
      if (token.length < 16)
        throw new RangeError('The metrics token must have at least 16 characters; received a shorter one.');
      return { token, render };
    },
  };
}
