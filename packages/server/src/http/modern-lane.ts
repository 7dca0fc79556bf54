/**
 * The modern lane: serves the two hot 2026-07-28 requests, `tools/call` and `tools/list`, from a long-lived
 * server instance per caller instead of building one per HTTP request.
 *
 * The SDK's `createMcpHandler` builds a fresh `McpServer`, a per-request transport, a web `Request` and a
 * `Response` for every 2026-07-28 request and closes the instance afterwards; that costs more CPU than the
 * whole guarded call. Requests of that revision are self-contained (each carries its own envelope), so one
 * instance can serve them all, exactly as the SDK's own stdio entry serves a connection: the lane hands each
 * caller's instance to `serveStdio` over an in-memory wire ({@link LaneWire}), gives every request an id of
 * its own on that wire (callers' ids may collide), and writes the answer to the HTTP response itself: JSON,
 * or an SSE stream once the call sends a notification (progress, log) before its result, as the SDK's
 * per-request transport does. A client that goes away cancels its call (`notifications/cancelled` on the
 * wire, which aborts the handler).
 *
 * Only requests the SDK would hand to a tool handler take the lane: a single request whose body and standard
 * headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) agree, for a tool without `x-mcp-header`
 * declarations or a scope challenge. Everything else (notifications, `subscriptions/listen`, discovery,
 * missing or mismatched headers, other methods) goes through the SDK's handler, which stays the authority on
 * every refusal. Instances are keyed by the protocol revision and the caller's whole principal (a changed role
 * gets a new one) and
 * kept for at most {@link MAX_LANE_INSTANCES} callers; the least recently used idle one is closed first.
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type McpServer,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { McpServerFactory, Principal } from '../contract.ts';
import type { Logger } from '../logger.ts';

/** Most callers with an instance of their own at once. */
export const MAX_LANE_INSTANCES = 64;
/** The SDK's SSE keep-alive interval, kept for streamed answers. */
const KEEP_ALIVE_MS = 15_000;
/** `-32021` (a required client capability is missing) is answered 400 even from a handler, as the SDK does. */
const MISSING_CAPABILITY = -32021;

type WireId = string | number;

/** One HTTP exchange waiting for its answer on a wire. */
class Exchange {
  private streaming = false;
  private keepAlive: NodeJS.Timeout | undefined;
  done = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly callerId: WireId,
  ) {}

  /** A notification about this request: switches the answer to an SSE stream and writes it. */
  notify(message: JSONRPCMessage): void {
    if (this.done) return;
    if (!this.streaming) {
      this.streaming = true;
      this.res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      this.keepAlive = setInterval(() => this.res.write(': keepalive\n\n'), KEEP_ALIVE_MS);
      this.keepAlive.unref();
    }
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** The answer, with the caller's own id back in place. */
  finish(message: JSONRPCMessage): void {
    if (this.done) return;
    this.done = true;
    const answer = JSON.stringify({ ...message, id: this.callerId });
    if (this.streaming) {
      clearInterval(this.keepAlive);
      this.res.end(`event: message\ndata: ${answer}\n\n`);
      return;
    }
    const missingCapability = isJSONRPCErrorResponse(message) && message.error.code === MISSING_CAPABILITY;
    this.res.writeHead(missingCapability ? 400 : 200, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(answer)),
    });
    this.res.end(answer);
  }

  /** The instance went away before answering: the connection is closed without an answer (nothing to retry on). */
  abandon(): void {
    if (this.done) return;
    this.done = true;
    clearInterval(this.keepAlive);
    this.res.destroy();
  }
}

/**
 * The in-memory transport between the lane and one caller's instance (served by `serveStdio`): inbound
 * messages are the callers' requests under wire ids; outbound answers and notifications are routed back to
 * the exchange they belong to. Notifications that belong to no request are dropped, as the SDK's per-request
 * serving drops them.
 */
class LaneWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly exchanges = new Map<WireId, Exchange>();
  closed = false;

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answer = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const id = answer ? (message as { id?: WireId }).id : options?.relatedRequestId;
    const exchange = id === undefined ? undefined : this.exchanges.get(id);
    if (exchange !== undefined && answer) {
      this.exchanges.delete(id!);
      exchange.finish(message);
    } else exchange?.notify(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    for (const exchange of this.exchanges.values()) exchange.abandon();
    this.exchanges.clear();
    this.onclose?.();
    return Promise.resolve();
  }
}

interface LaneInstance {
  readonly wire: LaneWire;
  readonly close: () => Promise<void>;
  readonly server: McpServer;
  /** Per tool name: whether the SDK must see the call (header declarations, scope challenge). */
  readonly sdkOnly: Map<string, boolean>;
}

/** The lane of one HTTP host. */
export interface ModernLane {
  /**
   * Serves `body` on the lane when it qualifies and returns true; returns false (having written nothing) when
   * the request must go through the SDK's handler.
   */
  serve(req: IncomingMessage, res: ServerResponse, body: unknown, principal: Principal): boolean;
  /** Closes every instance; calls still running are cancelled and their connections closed. */
  close(): Promise<void>;
}

/** Builds the lane over `factory` (called with the `http-modern` leg once per caller). */
export function createModernLane(factory: McpServerFactory, log: Logger): ModernLane {
  const instances = new Map<string, LaneInstance>();
  let nextWireId = 0;
  let closed = false;
  const reportError = (error: Error): void =>
    log.debug({ err: error.message }, 'the modern lane refused a message');

  const open = (key: string, principal: Principal): LaneInstance | undefined => {
    if (instances.size >= MAX_LANE_INSTANCES) {
      const idle = [...instances].find(([, instance]) => instance.wire.exchanges.size === 0);
      if (idle === undefined) return undefined;
      instances.delete(idle[0]);
      void idle[1].close();
    }
    const wire = new LaneWire();
    const server = factory({ principal, transport: 'http-modern' });
    const handle = serveStdio(() => server, { transport: wire, legacy: 'reject', onerror: reportError });
    const instance: LaneInstance = { wire, close: () => handle.close(), server, sdkOnly: new Map() };
    wire.onclose = () => {
      if (instances.get(key) === instance) instances.delete(key);
    };
    instances.set(key, instance);
    return instance;
  };

  /** The caller's instance for `revision`: an instance serves the revision of its first request only. */
  const instanceFor = (revision: string, principal: Principal): LaneInstance | undefined => {
    const key = `${revision} ${JSON.stringify(principal)}`;
    const found = instances.get(key);
    if (found === undefined) return open(key, principal);
    // Most recently used last, so that the first idle one found is the least recently used.
    instances.delete(key);
    instances.set(key, found);
    return found;
  };

  return {
    serve(req, res, body, principal) {
      if (closed) return false;
      const lane = laneRequest(req, body);
      if (lane === undefined) return false;
      const { request, revision } = lane;
      const instance = instanceFor(revision, principal);
      if (instance === undefined) return false;
      if (request.method === 'tools/call') {
        const name = (request.params as { name: string }).name;
        let sdkOnly = instance.sdkOnly.get(name);
        if (sdkOnly === undefined) {
          sdkOnly = needsSdk(instance.server, request);
          instance.sdkOnly.set(name, sdkOnly);
        }
        if (sdkOnly) return false;
      }
      const wireId = `recourse-lane-${nextWireId++}`;
      const exchange = new Exchange(res, request.id);
      instance.wire.exchanges.set(wireId, exchange);
      res.once('close', () => {
        if (exchange.done || !instance.wire.exchanges.delete(wireId)) return;
        exchange.done = true;
        instance.wire.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: wireId, reason: 'The client closed the HTTP request.' },
        });
      });
      instance.wire.onmessage?.({ ...request, id: wireId });
      return true;
    },
    async close() {
      closed = true;
      const all = [...instances.values()];
      instances.clear();
      await Promise.all(all.map((instance) => instance.close()));
    },
  };
}

/** The request and its protocol revision when it may take the lane: see the module documentation. */
function laneRequest(
  req: IncomingMessage,
  body: unknown,
): { request: JSONRPCRequest; revision: string } | undefined {
  const method = header(req, 'mcp-method');
  if (method !== 'tools/call' && method !== 'tools/list') return undefined;
  const version = header(req, 'mcp-protocol-version');
  if (version === undefined) return undefined;
  const name = header(req, 'mcp-name');
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: version,
    mcpMethodHeader: method,
    ...(name === undefined ? {} : { mcpNameHeader: name }),
    body,
  });
  if (route.kind !== 'modern' || route.messageKind !== 'request') return undefined;
  const message = route.message;
  if (message.method !== method || route.classification.revision !== version) return undefined;
  if (method === 'tools/call') {
    const toolName = (message.params as { name?: unknown } | undefined)?.name;
    if (typeof toolName !== 'string' || toolName !== name) return undefined;
  } else if (name !== undefined) return undefined;
  return { request: message, revision: version };
}

/**
 * Whether a tool's calls must go through the SDK: it declares `x-mcp-header` parameters, or a scope challenge
 * (or its challenge is decided asynchronously, or fails).
 */
function needsSdk(server: McpServer, request: JSONRPCRequest): boolean {
  const name = (request.params as { name: string }).name;
  const schema = server.toolInputSchemaJson(name);
  if (schema !== undefined && JSON.stringify(schema).includes('"x-mcp-header"')) return true;
  try {
    // A tool that would challenge a caller holding no scopes has a challenge the SDK must apply.
    const noScopes = { token: '', clientId: '', scopes: [] };
    return server.resolveScopeChallenge({ request, authInfo: noScopes }) !== undefined;
  } catch {
    return true;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}
