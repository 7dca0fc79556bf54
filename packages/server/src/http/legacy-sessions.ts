/**
 * Sessionful serving of the 2025 protocol era: one SDK server and one Streamable HTTP transport per
 * `Mcp-Session-Id`, with an event store so that SSE streams can be resumed. This is the seam behind the
 * HTTP host's `legacySessions` option; the default host keeps no sessions.
 *
 * @packageDocumentation
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { classifyInboundRequest, type AuthInfo, type McpServer } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.ts';
import type { McpServerFactory, Principal } from '../contract.ts';
import { createMemoryEventStore } from './memory-event-store.ts';
import { HOST_REFUSAL_CODES } from './refusal-codes.ts';
import { NOTHING_CHANGED, clip, type HttpRefusal } from './http-refusal.ts';

/** Options of {@link createLegacySessions}. */
export interface LegacySessionOptions {
  /** At most this many sessions at once (default 100); an `initialize` beyond it gets 503. */
  readonly maxSessions?: number;
  /** A session unused this long is closed (default 10 minutes). */
  readonly idleMs?: number;
  /** The `retry:` hint, in ms, sent to clients whose SSE stream the server closes (default 1 000). */
  readonly retryIntervalMs?: number;
}

/** The sessions of one host. */
export interface LegacySessions {
  /**
   * Whether a POST belongs here: it names a session, or the SDK classifies it as 2025-era and it is an
   * `initialize` (single or in a batch). A 2026-07-28 `initialize` is left to the stateless leg, which refuses it.
   */
  claims(headers: IncomingMessage['headers'], body: unknown): boolean;
  /**
   * Serves a request of a session (POST with a parsed body, or GET / DELETE). Returns a refusal instead when
   * the session is unknown, belongs to another caller, or the session limit is reached.
   */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    principal: Principal,
    body?: unknown,
  ): Promise<HttpRefusal | undefined>;
  /** Closes every session. */
  close(): Promise<void>;
}

interface Session {
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly principalId: string;
  lastUsed: number;
}

/** 100 sessions, the default {@link LegacySessionOptions.maxSessions}. */
export const DEFAULT_MAX_SESSIONS = 100;
/** 10 minutes, the default {@link LegacySessionOptions.idleMs}. */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60 * 1000;

/**
 * Creates the session table. Sessions are bound to the caller who initialized them: a request naming another
 * caller's session is answered as if the session did not exist (404, -31404), and so is an expired one.
 */
export function createLegacySessions(
  factory: McpServerFactory,
  log: Logger,
  options: LegacySessionOptions = {},
): LegacySessions {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
  const sessions = new Map<string, Session>();
  const eventStore = createMemoryEventStore();

  const drop = (id: string): void => {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    session.server.close().catch((error: unknown) => log.debug({ err: error }, 'closing a session failed'));
  };
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const [id, session] of sessions) if (session.lastUsed < cutoff) drop(id);
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  const open = async (principal: Principal): Promise<NodeStreamableHTTPServerTransport> => {
    const server = factory({ principal, transport: 'http-legacy' });
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore,
      retryInterval: options.retryIntervalMs ?? 1_000,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, principalId: principal.id, lastUsed: Date.now() });
        log.info({ member: principal.id, sessions: sessions.size }, 'legacy session opened');
      },
      onsessionclosed: (id) => drop(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  };

  return {
    claims(headers, body) {
      if (typeof headers['mcp-session-id'] === 'string') return true;
      const one = (name: string): string | undefined => {
        const value = headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const protocolVersionHeader = one('mcp-protocol-version');
      const mcpMethodHeader = one('mcp-method');
      const mcpNameHeader = one('mcp-name');
      const route = classifyInboundRequest({
        httpMethod: 'POST',
        body,
        ...(protocolVersionHeader === undefined ? {} : { protocolVersionHeader }),
        ...(mcpMethodHeader === undefined ? {} : { mcpMethodHeader }),
        ...(mcpNameHeader === undefined ? {} : { mcpNameHeader }),
      });
      // The SDK routes any `initialize` as legacy; one that names a 2026 revision is left to the stateless leg.
      if (route.kind !== 'legacy' || (protocolVersionHeader ?? '') >= '2026') return false;
      const messages: unknown[] = Array.isArray(body) ? body : [body];
      return messages.some(
        (message) =>
          typeof message === 'object' &&
          message !== null &&
          (message as { method?: unknown }).method === 'initialize',
      );
    },
    async serve(req, res, principal, body) {
      const id = req.headers['mcp-session-id'];
      const authInfo: AuthInfo = {
        token: '',
        clientId: principal.id,
        scopes: [],
        extra: { principal },
      };
      const withAuth = Object.assign(req, { auth: authInfo });
      if (typeof id !== 'string') {
        if (sessions.size >= maxSessions) return sessionsFull(maxSessions);
        const transport = await open(principal);
        await transport.handleRequest(withAuth, res, body);
        return undefined;
      }
      const session = sessions.get(id);
      if (session === undefined || session.principalId !== principal.id) return unknownSession(id);
      session.lastUsed = Date.now();
      await session.transport.handleRequest(withAuth, res, body);
      return undefined;
    },
    async close() {
      clearInterval(sweep);
      const all = [...sessions.keys()];
      for (const id of all) drop(id);
      await Promise.resolve();
    },
  };
}

function unknownSession(id: string): HttpRefusal {
  return {
    status: 404,
    code: HOST_REFUSAL_CODES.NotFound,
    reason: 'session',
    message:
      `No session "${clip(id, 64)}" exists for you: it expired, was closed, or was never opened. ` +
      `Send a new initialize request without an Mcp-Session-Id header to open a session; retrying with the same id ` +
      `will be refused again. ${NOTHING_CHANGED}`,
  };
}

function sessionsFull(max: number): HttpRefusal {
  return {
    status: 503,
    code: HOST_REFUSAL_CODES.Unavailable,
    reason: 'sessions-full',
    headers: { 'retry-after': '30' },
    message:
      `The server already holds its maximum of ${max} sessions, so no new session was opened. ` +
      `Retry in 30 seconds, when idle sessions have been closed, or send requests without initialize (stateless). ` +
      NOTHING_CHANGED,
  };
}
