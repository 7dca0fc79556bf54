/**
 * A loopback HTTP proxy that puts faults in front of any MCP server over Streamable HTTP: it can drop a
 * connection before forwarding a request, drop it after the server answered (the work is done, the answer
 * lost), or answer a status itself. Used to test clients against real servers.
 *
 * @packageDocumentation
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request. */
export type ProxyAction =
  'pass' | 'drop_before' | 'drop_after' | { readonly status: number; readonly retryAfterSeconds?: number };

/** The parts of a request a decision can look at. */
export interface ProxiedRequest {
  readonly method: string;
  /** The JSON-RPC method, when the body is a single JSON-RPC message. */
  readonly rpcMethod?: string;
  /** `params.name` for `tools/call`. */
  readonly tool?: string;
}

/** Options of {@link startFlakyProxy}. */
export interface FlakyProxyOptions {
  /** The MCP endpoint to forward to, e.g. `http://127.0.0.1:PORT/mcp`. */
  readonly target: string;
  /** Decides per request (default: always `'pass'`). */
  readonly decide?: (request: ProxiedRequest) => ProxyAction;
}

/** A running proxy and what it did. */
export interface FlakyProxy {
  /** The proxy's MCP endpoint (same path as the target). */
  readonly url: string;
  /** How many requests got each action. */
  readonly counts: { pass: number; drop_before: number; drop_after: number; status: number };
  close(): Promise<void>;
}

const HOP_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'keep-alive',
]);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function describe(method: string, body: Buffer): ProxiedRequest {
  try {
    const rpc = JSON.parse(body.toString('utf8')) as { method?: unknown; params?: { name?: unknown } };
    return {
      method,
      ...(typeof rpc.method === 'string' ? { rpcMethod: rpc.method } : {}),
      ...(rpc.method === 'tools/call' && typeof rpc.params?.name === 'string'
        ? { tool: rpc.params.name }
        : {}),
    };
  } catch {
    return { method };
  }
}

/** Starts a flaky proxy on 127.0.0.1, port 0. */
export async function startFlakyProxy(options: FlakyProxyOptions): Promise<FlakyProxy> {
  const target = new URL(options.target);
  const counts = { pass: 0, drop_before: 0, drop_after: 0, status: 0 };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    const action = options.decide?.(describe(method, body)) ?? 'pass';
    if (action === 'drop_before') {
      counts.drop_before++;
      req.socket.destroy();
      return;
    }
    if (typeof action === 'object') {
      counts.status++;
      const headers =
        action.retryAfterSeconds === undefined ? {} : { 'retry-after': String(action.retryAfterSeconds) };
      res.writeHead(action.status, { 'content-type': 'text/plain', ...headers });
      res.end(`Proxy answered ${action.status}.`);
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !HOP_HEADERS.has(name)) headers.set(name, value);
    }
    const aborter = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborter.abort();
    });
    const upstream = await fetch(new URL(req.url ?? target.pathname, target), {
      method,
      headers,
      signal: aborter.signal,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
    });
    if (action === 'drop_after') {
      counts.drop_after++;
      await upstream.arrayBuffer().catch(() => undefined);
      req.socket.destroy();
      return;
    }
    counts.pass++;
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name)) out[name] = value;
    });
    res.writeHead(upstream.status, out);
    if (upstream.body) {
      try {
        for await (const chunk of upstream.body) res.write(chunk);
      } catch {
        // the client or the server went away
      }
    }
    res.end();
  }

  const server = createServer((req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    counts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
