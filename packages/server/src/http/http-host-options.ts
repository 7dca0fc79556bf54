/**
 * The options and the handle of the HTTP host ({@link startHttpHost} in `http-host.ts`).
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.ts';
import type { CallCanceller, McpServerFactory, Principal, TokenVerifier } from '../contract.ts';
import type { FloodLimit } from './flood-guard.ts';
import type { LegacySessionOptions } from './legacy-sessions.ts';
import type { MetricsEndpoint, ReadinessCheck } from './operations-routes.ts';

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
  /**
   * Serve 2026-07-28 `tools/call` and `tools/list` requests from one long-lived server instance per caller
   * instead of one built per request (default true; see `modern-lane.ts`). `false` sends every request through
   * the SDK's `createMcpHandler`.
   */
  readonly modernLane?: boolean;
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
  /**
   * Flood limit, checked before anything else (default 600 requests per 10 s); `false` disables it. A request
   * whose bearer token the verifier accepts is counted under its member; every other request (no credential,
   * or one refused) under its client address, normalised: all of loopback (127.0.0.0/8, `::ffff:127.x.x.x`,
   * `::1`) is one client, an IPv6 address counts by its /64, another IPv4 address as it is. So an
   * unauthenticated process cannot lock members out, and changing the loopback source address does not buy a
   * new budget. It does not stop a flood of requests with bad tokens from costing one verification each, nor a
   * member from spending its own budget; the per-member tool rate limit is the pipeline's.
   */
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
  /**
   * The client address of a request, for the flood guard and the log (default the socket's remote address).
   * Behind a trusted proxy, read the forwarding header here; IP addresses are normalised as `flood` says, other
   * text is used as it is.
   */
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
