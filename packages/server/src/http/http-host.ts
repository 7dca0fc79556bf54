/**
 * The HTTP host: serves any {@link McpServerFactory} over Streamable HTTP on one endpoint for both
 * protocol eras (2026-07-28 stateless and the 2025 `initialize` family), behind flood protection,
 * DNS-rebinding protection, body checks and bearer authentication.
 *
 * @packageDocumentation
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  type AuthInfo,
  type McpRequestContext,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { pino } from 'pino';
import type { Logger } from '../logger.ts';
import { ANONYMOUS_PRINCIPAL } from '../contract.ts';
import type { CallCanceller, McpServerFactory, Principal, TokenVerifier } from '../contract.ts';
import { createFloodGuard, DEFAULT_FLOOD_LIMIT, type FloodLimit } from './flood-guard.ts';
import { checkHostAndOrigin, loopbackPolicy, type HostOriginPolicy } from './host-origin-guard.ts';
import {
  checkContentType,
  checkDeclaredSize,
  discardBody,
  discardLimit,
  DEFAULT_MAX_BODY_BYTES,
  parseJsonRpcBody,
  readBody,
} from './request-body.ts';
import { authenticate, DEFAULT_TOKEN_HINT } from './bearer-auth.ts';
import { DEFAULT_MAX_JSON_DEPTH } from '../json-depth.ts';
import { buildMetadata, metadataPaths } from './protected-resource-metadata.ts';
import { applyCancellations, isSingleCancellation, legacyCancellations } from './legacy-cancel.ts';
import { writeRefusal, type HttpRefusal, type JsonRpcId } from './http-refusal.ts';
import { methodNotAllowed, notFound } from './route-refusals.ts';
import { createLegacySessions, type LegacySessionOptions } from './legacy-sessions.ts';
import { serveThroughFetch } from './fetch-bridge.ts';
import { createDrainGate, drainingRefusal } from './drain-gate.ts';
import { serveOperations, type MetricsEndpoint, type ReadinessCheck } from './operations-routes.ts';

/** Default longest time to receive a whole request: 30 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Default most connections open at once: 1024. */
export const DEFAULT_MAX_CONNECTIONS = 1024;

/** Options of {@link startHttpHost}. */

export interface HttpHostOptions {
  /** Builds a fresh SDK server per HTTP request; gets the verified principal and the leg. */
  readonly factory: McpServerFactory;
  /** Stops calls named by a 2025-era `notifications/cancelled` (which the stateless leg cannot route). */
  readonly canceller?: CallCanceller;
  /**
   * Checks bearer tokens: with a verifier every MCP request needs one, and the protected-resource metadata is
   * served. Default none: no authentication, every request is served as {@link ANONYMOUS_PRINCIPAL}.
   */
  readonly verifier?: TokenVerifier;
  /** Address to bind (default `127.0.0.1`). */
  readonly host?: string;
  /** Port to bind (default 0: a free port, reported in {@link HttpHost.port}). */
  readonly port?: number;
  /** Path of the MCP endpoint (default `/mcp`). */
  readonly path?: string;
  /** Largest accepted request body in bytes (default 1 MiB); larger bodies get 413. */
  readonly maxBodyBytes?: number;
  /** Deepest JSON nesting of a request body (default 64); deeper bodies get 400 / -32600 before parsing. */
  readonly maxJsonDepth?: number;
  /**
   * Longest time a client may take to send a whole request, headers and body (default 30 s; Node's own default
   * is 300 s). A slower request is answered 408 and its connection closed, so slow senders cannot hold
   * connections open. Headers alone get at most 10 s or this, whichever is shorter.
   */
  readonly requestTimeoutMs?: number;
  /** Most messages in one JSON-RPC batch (default 16); a larger batch gets 400 / -32600. */
  readonly maxBatchMessages?: number;
  /** Most connections open at once (default 1024); the ones beyond it are closed as they arrive. */
  readonly maxConnections?: number;
  /** Accepted `Host` values (`name` or `name:port`); default the loopback names with the bound port; `false` disables the check. */
  readonly allowedHosts?: readonly string[] | false;
  /** Accepted browser origins (`scheme://host:port`); default the loopback origins with the bound port; `false` disables the check. */
  readonly allowedOrigins?: readonly string[] | false;
  /** `Host` values accepted besides `allowedHosts` or its default, e.g. the public name behind a reverse proxy. */
  readonly alsoAllowedHosts?: readonly string[];
  /** Browser origins accepted besides `allowedOrigins` or its default. */
  readonly alsoAllowedOrigins?: readonly string[];
  /** Per client address, checked before authentication (default 600 requests per 10 s); `false` disables it. */
  readonly flood?: FloodLimit | false;
  /** Where refusals (info/warn, with the client address, never tokens) and faults go; default silent. */
  readonly logger?: Logger;
  /** `resource_name` of the protected-resource metadata (default `MCP server`). */
  readonly resourceName?: string;
  /** `authorization_servers` of the metadata (default none: tokens are issued by the operator, not by OAuth). */
  readonly authorizationServers?: readonly string[];
  /** How to get a token, as a clause in 401 messages (default "Ask the server's operator for a new token"). */
  readonly tokenHint?: string;
  /** The public URL of the MCP endpoint when it differs from the `Host` the client used (TLS proxy). */
  readonly publicUrl?: string;
  /** The flood key for a request (default the socket's remote address). */
  readonly clientAddress?: (req: IncomingMessage) => string;
  /**
   * Serve the 2025 era with sessions (default false: stateless). When on, an `initialize` opens a session with
   * its own SDK server (built by `factory` once per session) and an event store; requests carrying
   * `Mcp-Session-Id` (POST, GET for the standalone stream or resumption, DELETE to end it) go to that session.
   * Everything else, including all 2026-07-28 traffic, stays stateless. Needed for 2025 server-to-client
   * requests (sampling, elicitation) and SSE resumption.
   */
  readonly legacySessions?: boolean | LegacySessionOptions;
  /**
   * TEST ONLY: the principal of requests that send no `Authorization` header at all (default none: such
   * requests get 401). A request with a wrong token is still refused. Used by the board's conformance mode,
   * whose test suites cannot send tokens; never set it on a server reachable by others.
   */
  readonly anonymous?: Principal;
  /**
   * The event bus behind 2026-07-28 `subscriptions/listen` streams (default: a private in-memory bus). Publish
   * `{ kind: 'tools_list_changed' }` and the like on it to notify listening clients.
   */
  readonly bus?: ServerEventBus;
  /** What `/readyz` checks besides draining (e.g. the database); default none. */
  readonly readiness?: readonly ReadinessCheck[];
  /** Serves `/metrics` behind its own bearer token; default off (the path answers 404). */
  readonly metrics?: MetricsEndpoint;
  /** Told about every refusal the host answers itself (e.g. to count them by status). */
  readonly onRefusal?: (status: number, reason: string) => void;
  /**
   * Builds the routes served beside the MCP endpoint, once the host listens and its MCP URL (`publicUrl`, or
   * the bound address) is known; requests arriving before it resolves wait for it.
   */
  readonly routes?: (mcpUrl: string) => HostRoutes | Promise<HostRoutes>;
}

/** Options of {@link HttpHost.drain}. */
export interface DrainOptions {
  /** How long in-flight requests may take to finish before their calls are cancelled (ms). */
  readonly timeoutMs: number;
  /** How long cancelled calls get to send their answer before their connections are closed (default 5000 ms). */
  readonly graceMs?: number;
}

/** What a drain did. */
export interface DrainReport {
  /** Requests in progress when draining began. */
  readonly inFlight: number;
  /** Whether they all finished within the drain timeout. */
  readonly finished: boolean;
  /** Calls cancelled at the drain timeout (their callers got a `CALL_CANCELLED` result). */
  readonly cancelled: number;
  /** Requests still open after the grace period, whose connections were closed. */
  readonly abandoned: number;
}

/**
 * Routes served beside the MCP endpoint, e.g. an OAuth authorization server with its pages, or health checks.
 * The host checks flood and Host/Origin first, serves the protected-resource metadata, then offers every other
 * request to {@link HostRoutes.handle} before its own path check.
 */
export interface HostRoutes {
  /** Serves the request and resolves true when `path` is one of its routes; resolves false at once otherwise. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
  /** `authorization_servers` of the protected-resource metadata (overridden by the host option). */
  readonly authorizationServers?: readonly string[];
  /** `scopes_supported` of the protected-resource metadata. */
  readonly scopesSupported?: readonly string[];
  /**
   * Whether requests to `path` may come from any browser origin (public CORS endpoints such as OAuth metadata,
   * registration and token endpoints): their `Origin` is not checked, their `Host` still is.
   */
  crossOrigin?(path: string): boolean;
  /** Releases what the routes hold; called by {@link HttpHost.close}. */
  close?(): void | Promise<void>;
}

/** A running HTTP host. */
export interface HttpHost {
  /** URL of the MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Whether {@link HttpHost.drain} began. */
  readonly draining: boolean;
  /** Stops accepting, aborts in-flight calls (their signals fire) and closes every connection. */
  close(): Promise<void>;
  /**
   * Drains, then closes: `/readyz` turns 503 at once while the listener stays open; new MCP requests get 503
   * with `Retry-After` and a JSON-RPC error body (-31503); requests in progress may finish until `timeoutMs`;
   * calls still running then are cancelled through the pipeline (each caller gets a `CALL_CANCELLED` result
   * saying whether anything changed) and get `graceMs` to answer; then the listener closes.
   */
  drain(options: DrainOptions): Promise<DrainReport>;
}

/**
 * Starts the HTTP host. Refusals, in order: flood (429, -31429) → Host/Origin (403, -31403) → path (404)
 * and method (405) → body size (413, -31413) → content type (415, -31415) → JSON (400, -32700) and
 * JSON-RPC shape (400, -32600) → bearer token (401, -31401; 503 when the verifier throws). Serving goes
 * on after every refusal.
 *
 * @throws RangeError for an invalid `flood`, `maxBodyBytes` or `maxJsonDepth`; the `listen` error when binding fails.
 */
export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  const mcpPath = options.path ?? '/mcp';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!(maxBodyBytes > 0))
    throw new RangeError(`maxBodyBytes must be a positive number; received ${maxBodyBytes}.`);
  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  if (!(Number.isSafeInteger(maxJsonDepth) && maxJsonDepth >= 1))
    throw new RangeError(`maxJsonDepth must be a whole number of at least 1; received ${maxJsonDepth}.`);
  const base: Logger = options.logger ?? pino({ enabled: false });
  const log = base.child({ component: 'http-host' });
  const flood = createFloodGuard(options.flood ?? DEFAULT_FLOOD_LIMIT);
  const [metadataPath, metadataRoot] = metadataPaths(mcpPath);
  const tokenHint = options.tokenHint ?? DEFAULT_TOKEN_HINT;
  const clientAddressOf = options.clientAddress ?? socketAddress;

  const sessions =
    options.legacySessions === undefined || options.legacySessions === false
      ? undefined
      : createLegacySessions(
          options.factory,
          log,
          options.legacySessions === true ? {} : options.legacySessions,
        );

  const mcp = createMcpHandler((ctx: McpRequestContext) => options.factory(factoryContext(ctx)), {
    maxRequestBodySize: maxBodyBytes * 2,
    ...(options.bus === undefined ? {} : { bus: options.bus }),
    onerror: (error) => log.debug({ err: error.message }, 'sdk refused or failed a request'),
  });
  const handlerFailed = (error: Error): void => log.error({ err: error }, 'the MCP handler failed');

  let policy: HostOriginPolicy = loopbackPolicy(0);
  let boundUrl = '';
  // Settled once the host listens and the routes are built; requests that arrive earlier wait for it.
  let settleRoutes: (built: Promise<HostRoutes | undefined>) => void = () => undefined;
  const routes = new Promise<HostRoutes | undefined>((resolve) => {
    settleRoutes = resolve;
  });

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const client = clientAddressOf(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const refuse = (refusal: HttpRefusal, id: JsonRpcId = null): void => {
      const serious = refusal.status === 403 || refusal.status === 429 || refusal.status >= 500;
      const level = refusal.quiet === true ? 'debug' : serious ? 'warn' : 'info';
      log[level](
        {
          client,
          status: refusal.status,
          code: refusal.code,
          reason: refusal.reason,
          method: req.method,
          path,
        },
        'request refused',
      );
      options.onRefusal?.(refusal.status, refusal.reason);
      if (gate.draining) res.shouldKeepAlive = false;
      writeRefusal(res, refusal, id);
    };

    const flooded = await flood(client);
    if (flooded !== undefined) return refuse(flooded);
    const operations = await serveOperations(req, res, path, {
      draining: () => gate.draining,
      checks: options.readiness ?? [],
      metrics: options.metrics,
      log,
    });
    if (operations === true) return;
    if (operations !== false) return refuse(operations);
    const extra = await routes;
    const anyOrigin = extra?.crossOrigin?.(path) === true;
    const early = checkHostAndOrigin(req.headers, anyOrigin ? { ...policy, allowedOrigins: false } : policy);
    if (early !== undefined) return refuse(early);

    const endpoint = resourceUrl(req);
    const { verifier } = options;
    if (verifier !== undefined && (path === metadataPath || path === metadataRoot)) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return refuse(methodNotAllowed(req.method, path, 'GET'));
      const document = buildMetadata(
        endpoint,
        options.authorizationServers ?? extra?.authorizationServers ?? [],
        options.resourceName ?? 'MCP server',
        extra?.scopesSupported,
      );
      res.writeHead(200, {
        'content-type': 'application/json',
        'cache-control': 'max-age=300',
        'access-control-allow-origin': '*',
      });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(document));
      return;
    }
    if (path !== mcpPath && extra !== undefined && (await extra.handle(req, res, path))) return;
    if (path !== mcpPath) return refuse(notFound(path, mcpPath, metadataPath));
    const signIn = async (id: JsonRpcId): Promise<Principal | undefined> => {
      if (verifier === undefined) return ANONYMOUS_PRINCIPAL;
      if (options.anonymous !== undefined && req.headers.authorization === undefined)
        return options.anonymous;
      const auth = await authenticate(req.headers, verifier, {
        resourceMetadataUrl: new URL(metadataPath, endpoint).href,
        tokenHint,
      });
      if (auth.ok) return auth.principal;
      if (auth.error !== undefined) log.error({ err: auth.error, client }, 'the token verifier failed');
      refuse(auth.refusal, id);
      return undefined;
    };
    const sessionStream =
      sessions !== undefined &&
      (req.method === 'GET' || req.method === 'DELETE') &&
      typeof req.headers['mcp-session-id'] === 'string';
    if (sessionStream) {
      const member = await signIn(null);
      if (member === undefined) return;
      const refusal = await sessions.serve(req, res, member);
      if (refusal !== undefined) refuse(refusal);
      return;
    }
    if (req.method !== 'POST') return refuse(methodNotAllowed(req.method, path, 'POST'));
    const draining = gate.draining;
    if (!draining) res.once('close', gate.enter());
    else res.shouldKeepAlive = false;

    const before = checkDeclaredSize(req.headers, maxBodyBytes) ?? checkContentType(req.headers);
    if (before !== undefined) {
      // The client is still sending: read and drop its body (up to a bound) so that it can read the refusal.
      await discardBody(req, discardLimit(maxBodyBytes));
      return refuse(before);
    }
    const read = await readBody(req, maxBodyBytes);
    if (!read.ok) return refuse(read.refusal);
    const parsed = parseJsonRpcBody(read.text, maxJsonDepth, options.maxBatchMessages);
    if (!parsed.ok) return refuse(parsed.refusal, parsed.id);
    if (draining) return refuse(drainingRefusal(DRAIN_RETRY_AFTER_SECONDS), parsed.id);

    const principal = await signIn(parsed.id);
    if (principal === undefined) return;
    if (sessions?.claims(req.headers, parsed.body) === true) {
      const refusal = await sessions.serve(req, res, principal, parsed.body);
      if (refusal !== undefined) refuse(refusal, parsed.id);
      return;
    }

    const cancellations = await legacyCancellations(req.headers, parsed.body);
    if (cancellations.length > 0) {
      const stopped =
        options.canceller === undefined
          ? 0
          : applyCancellations(options.canceller, principal.id, cancellations);
      log.info(
        { client, principal: principal.id, requested: cancellations.length, stopped },
        'legacy cancellation',
      );
      if (isSingleCancellation(parsed.body)) {
        res.writeHead(202).end();
        return;
      }
    }
    const authInfo: AuthInfo = { token: '', clientId: principal.id, scopes: [], extra: { principal } };
    await serveThroughFetch(mcp, req, res, parsed.body, authInfo, handlerFailed);
  };

  const gate = createDrainGate();
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(10_000, requestTimeout),
      // How often Node looks for requests past their time (its default, 30 s, would let one run 30 s late).
      connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor(requestTimeout / 4))),
    },
    (req, res) => {
      // While draining, every answer ends its connection, so that clients and balancers reconnect elsewhere.
      if (gate.draining) res.shouldKeepAlive = false;
      serve(req, res).catch((error: unknown) => {
        if (req.destroyed || res.destroyed) {
          log.debug({ err: error }, 'the client went away while its request was read');
          return;
        }
        log.error({ err: error }, 'the HTTP host failed while serving a request');
        if (!res.headersSent) {
          writeRefusal(res, {
            status: 500,
            code: -32603,
            reason: 'host-fault',
            message:
              'The server failed before it could serve the request. Retry in a few seconds; nothing was changed.',
          });
        } else res.destroy();
      });
    },
  );
  server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  policy = resolvePolicy(options, host, port);
  boundUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}${mcpPath}`;
  log.info({ url: boundUrl }, 'MCP endpoint listening');
  const build = options.routes;
  const built = Promise.resolve().then(() => build?.(options.publicUrl ?? boundUrl));
  settleRoutes(built);
  try {
    await built;
  } catch (error) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }

  function resourceUrl(req: IncomingMessage): string {
    if (options.publicUrl !== undefined) return options.publicUrl;
    if (policy.allowedHosts !== false && req.headers.host !== undefined)
      return `http://${req.headers.host}${mcpPath}`;
    return boundUrl;
  }

  const close = async (): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await sessions?.close();
    await mcp.close();
    await (await routes.catch(() => undefined))?.close?.();
    await closed;
  };

  return {
    url: boundUrl,
    port,
    get draining() {
      return gate.draining;
    },
    close,
    drain: async (drain) => {
      const inFlight = gate.active;
      gate.begin();
      // Idle keep-alive connections would carry the next request here; closing them sends it elsewhere.
      server.closeIdleConnections();
      log.info({ inFlight, timeoutMs: drain.timeoutMs }, 'draining: new requests are refused');
      const finished = await gate.idle(drain.timeoutMs);
      let cancelled = 0;
      if (!finished) {
        cancelled = options.canceller?.cancelAll?.(DRAIN_CANCEL_REASON) ?? 0;
        log.warn({ running: gate.active, cancelled }, 'drain timeout: running calls cancelled');
        await gate.idle(drain.graceMs ?? DEFAULT_DRAIN_GRACE_MS);
      }
      const abandoned = gate.active;
      if (abandoned > 0) log.warn({ abandoned }, 'drain: closing connections of requests still open');
      await close();
      log.info({ inFlight, finished, cancelled, abandoned }, 'drained and closed');
      return { inFlight, finished, cancelled, abandoned };
    },
  };
}

/** `Retry-After` of the 503 a draining host answers (seconds). */
const DRAIN_RETRY_AFTER_SECONDS = 1;
/** Default time cancelled calls get to answer before their connections close. */
const DEFAULT_DRAIN_GRACE_MS = 5000;
/** The cancellation reason of calls still running at the drain timeout. */
export const DRAIN_CANCEL_REASON = 'the server instance is shutting down';

function factoryContext(ctx: McpRequestContext): Parameters<McpServerFactory>[0] {
  const principal = ctx.authInfo?.extra?.principal as Principal | undefined;
  return { principal, transport: ctx.era === 'modern' ? 'http-modern' : 'http-legacy' };
}

function socketAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

function resolvePolicy(options: HttpHostOptions, host: string, port: number): HostOriginPolicy {
  const loopback = loopbackPolicy(port);
  const bound = host.includes(':') ? `[${host}]` : host;
  const wildcard = host === '0.0.0.0' || host === '::';
  const defaultHosts =
    wildcard || loopback.allowedHosts === false
      ? loopback.allowedHosts
      : [...loopback.allowedHosts, `${bound}:${port}`];
  const defaultOrigins =
    wildcard || loopback.allowedOrigins === false
      ? loopback.allowedOrigins
      : [...loopback.allowedOrigins, `http://${bound}:${port}`];
  const hosts = options.allowedHosts ?? defaultHosts;
  const origins = options.allowedOrigins ?? defaultOrigins;
  const moreHosts = options.alsoAllowedHosts ?? [];
  const moreOrigins = options.alsoAllowedOrigins ?? [];
  return {
    allowedHosts: hosts === false ? false : [...hosts, ...moreHosts],
    allowedOrigins: origins === false ? false : [...origins, ...moreOrigins],
    defaults: options.allowedHosts === undefined && options.allowedOrigins === undefined,
  };
}
