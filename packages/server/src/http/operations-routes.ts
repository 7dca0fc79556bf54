/**
 * The operator's endpoints of an HTTP host: `/healthz` (the process serves), `/readyz` (every readiness check
 * passes and the host is not draining) and `/metrics` (Prometheus text, behind its own bearer token).
 *
 * @packageDocumentation
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.ts';
import { HOST_REFUSAL_CODES } from './refusal-codes.ts';
import { NOTHING_CHANGED, type HttpRefusal } from './http-refusal.ts';
import { methodNotAllowed } from './route-refusals.ts';

/** One readiness check, e.g. "the database answers and its schema is current". */
export interface ReadinessCheck {
  /** Short name shown in the `/readyz` body, e.g. `database`. */
  readonly name: string;
  /**
   * Resolves when ready; rejects with an `Error` whose message says what is wrong in words an operator can act
   * on (it is shown in the `/readyz` body, so it must hold no connection string or password).
   */
  check(signal: AbortSignal): Promise<void>;
}

/** The `/metrics` endpoint: what it serves and the bearer token a scraper must send. */
export interface MetricsEndpoint {
  /** The scrape token (at least 16 characters); requests without it get 401. */
  readonly token: string;
  /** The exposition in the Prometheus text format and its content type. */
  render(): Promise<{ readonly contentType: string; readonly body: string }>;
}

/** Paths of the operator's endpoints. */
export const OPERATIONS_PATHS = { health: '/healthz', ready: '/readyz', metrics: '/metrics' } as const;

/** How long one readiness check may take before it counts as failed. */
export const READINESS_CHECK_TIMEOUT_MS = 2000;

/** What the operator routes need from their host. */
export interface OperationsContext {
  readonly draining: () => boolean;
  readonly checks: readonly ReadinessCheck[];
  readonly metrics: MetricsEndpoint | undefined;
  readonly log: Logger;
}

function writeJson(res: ServerResponse, status: number, body: unknown, head: boolean): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(head ? undefined : text);
}

async function runCheck(check: ReadinessCheck): Promise<string | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), READINESS_CHECK_TIMEOUT_MS);
  try {
    await Promise.race([
      check.check(controller.signal),
      new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => {
          reject(new Error(`no answer within ${String(READINESS_CHECK_TIMEOUT_MS)} ms`));
        });
      }),
    ]);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

function sameToken(sent: string, expected: string): boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}

function metricsUnauthorized(): HttpRefusal {
  return {
    status: 401,
    code: HOST_REFUSAL_CODES.Unauthorized,
    reason: 'metrics-token',
    headers: { 'www-authenticate': 'Bearer realm="metrics"' },
    message:
      'The metrics endpoint needs the metrics token: send "Authorization: Bearer <token>" with the token the ' +
      'operator set with --metrics-token (RECOURSE_METRICS_TOKEN); board tokens are not accepted here. ' +
      `Retrying without it will not help. ${NOTHING_CHANGED}`,
  };
}

/**
 * Serves `path` when it is one of the operator's endpoints: answers `true` when it wrote the response, or an
 * {@link HttpRefusal} to send, or `false` when the path is not an operator endpoint (or `/metrics` is off).
 * `/healthz` answers 200 for as long as the process serves, also while draining; `/readyz` answers 503 while
 * draining or when a check fails, naming which.
 */
export async function serveOperations(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  ctx: OperationsContext,
): Promise<boolean | HttpRefusal> {
  const isOps =
    path === OPERATIONS_PATHS.health ||
    path === OPERATIONS_PATHS.ready ||
    (path === OPERATIONS_PATHS.metrics && ctx.metrics !== undefined);
  if (!isOps) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(req.method, path, 'GET');
  const head = req.method === 'HEAD';
  if (path === OPERATIONS_PATHS.health) {
    writeJson(res, 200, { status: 'ok', draining: ctx.draining() }, head);
    return true;
  }
  if (path === OPERATIONS_PATHS.ready) {
    const checks: Record<string, string> = { draining: ctx.draining() ? 'yes' : 'no' };
    const results = await Promise.all(ctx.checks.map(async (check) => [check.name, await runCheck(check)]));
    let ready = !ctx.draining();
    for (const [name, problem] of results) {
      if (name === undefined) continue;
      checks[name] = problem === undefined ? 'ok' : `failed: ${problem}`;
      if (problem !== undefined) {
        ready = false;
        ctx.log.warn({ check: name, problem }, 'readiness check failed');
      }
    }
    writeJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'unready', checks }, head);
    return true;
  }
  const metrics = ctx.metrics;
  if (metrics === undefined) return false;
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match?.[1] === undefined || !sameToken(match[1], metrics.token)) return metricsUnauthorized();
  const { contentType, body } = await metrics.render();
  res.writeHead(200, {
    'content-type': contentType,
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(head ? undefined : body);
  return true;
}
