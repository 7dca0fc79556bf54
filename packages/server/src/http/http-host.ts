/**
 * The HTTP host: serves any {@link McpServerFactory} over Streamable HTTP on one endpoint for both
 * protocol eras (2026-07-28 stateless and the 2025 `initialize` family), behind flood protection,
 * DNS-rebinding protection, body checks and bearer authentication.
 *
 * @packageDocumentation
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, type AuthInfo, type McpRequestContext } from '@modelcontextprotocol/server';
import { pino } from 'pino';
import type { Logger } from '../logger.ts';
import { ANONYMOUS_PRINCIPAL } from '../contract.ts';
import type { McpServerFactory, Principal } from '../contract.ts';
import { createFloodGuard, DEFAULT_FLOOD_LIMIT } from './flood-guard.ts';
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
import { answerVerdict, DEFAULT_TOKEN_HINT, verifyBearer, type BearerVerdict } from './bearer-auth.ts';
import { DEFAULT_MAX_JSON_DEPTH } from '../json-depth.ts';
import { buildMetadata, metadataPaths } from './protected-resource-metadata.ts';
import { applyCancellations, isSingleCancellation, legacyCancellations } from './legacy-cancel.ts';
import { writeRefusal, type HttpRefusal, type JsonRpcId } from './http-refusal.ts';
import { methodNotAllowed, notFound } from './route-refusals.ts';
import { createLegacySessions } from './legacy-sessions.ts';
import { serveThroughFetch } from './fetch-bridge.ts';
import { createModernLane } from './modern-lane.ts';
import { createDrainGate, drainingRefusal } from './drain-gate.ts';
import { serveOperations } from './operations-routes.ts';
import {
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type HostRoutes,
  type HttpHost,
  type HttpHostOptions,
} from './http-host-options.ts';

export type {
  DrainOptions,
  DrainReport,
  HostRoutes,
  HttpHost,
  HttpHostOptions,
} from './http-host-options.ts';
export { DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT_MS } from './http-host-options.ts';

/**
 * Starts the HTTP host. Refusals, in order: flood (429, -31429) → Host/Origin (403, -31403) → path (404)
 * and method (405) → body size (413, -31413) → content type (415, -31415) → JSON (400, -32700) and
 * JSON-RPC shape (400, -32600) → bearer token (401, -31401; 503 when the verifier throws). Serving goes
 * on after every refusal. A request that carries a credential is verified once, before the flood check, so
 * that an accepted one is counted under its member; the refusal of a bad one still comes last, with its id.
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
  const lane = options.modernLane === false ? undefined : createModernLane(options.factory, log);

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

    const { verifier } = options;
    // A request with a credential is verified first, so that an accepted one is counted under its member and a
    // flood from other local processes cannot lock members out; the verdict is answered later, with the id.
    const credential: BearerVerdict | undefined =
      verifier !== undefined && req.headers.authorization !== undefined
        ? await verifyBearer(req.headers, verifier)
        : undefined;
    const flooded = await flood(
      credential?.ok === true ? { principal: credential.principal.id } : { address: client },
    );
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
      const auth = answerVerdict(credential ?? (await verifyBearer(req.headers, verifier)), {
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
    if (lane?.serve(req, res, parsed.body, principal) === true) return;
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
    await lane?.close();
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
