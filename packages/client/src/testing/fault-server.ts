/**
 * A fault-injection MCP server over Streamable HTTP (both protocol eras), for testing MCP clients:
 * scripted latency, `isError` failures of each category, protocol errors, HTTP 429/503, connection
 * drops before and after the tool's work, stalling progress, and -32022 version refusals.
 *
 * @packageDocumentation
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createFaultMcpServer, createFaultState, takenFault } from './fault-tools.ts';
import type { FaultExecution, FaultServerState } from './fault-tools.ts';
import type { Fault } from './fault-script.ts';

/** Options of {@link startFaultServer}. */
export interface FaultServerOptions {
  /** Interface to bind (default `127.0.0.1`). */
  readonly host?: string;
  /** Port (default 0: a free port). */
  readonly port?: number;
  /** Protocol versions the server accepts, also in a legacy `initialize`; others get -32022 (default: all the SDK serves). */
  readonly acceptVersions?: readonly string[];
}

/** A running fault server. */
export interface FaultServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  readonly state: FaultServerState;
  /** Queues faults for the next calls of `tool`, in order. */
  inject(tool: string, ...faults: readonly Fault[]): void;
  /** Changes the accepted protocol versions at run time (undefined: accept all). */
  setAcceptedVersions(versions: readonly string[] | undefined): void;
  /** The tool work actually done, optionally for one tool. */
  executions(tool?: string): FaultExecution[];
  /** How many `tools/call` requests for `tool` reached the server. */
  requests(tool: string): number;
  /** Stops accepting connections, ends hanging tools and closes open sockets. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const ENVELOPE_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

interface RpcShape {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: { readonly name?: unknown; readonly _meta?: Record<string, unknown> };
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseRpc(body: Buffer): RpcShape | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function rpcError(
  res: ServerResponse,
  status: number,
  id: unknown,
  code: number,
  message: string,
  data?: unknown,
): void {
  const error = data === undefined ? { code, message } : { code, message, data };
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error }));
}

function requestedVersion(req: IncomingMessage, rpc: RpcShape | undefined): string | undefined {
  if (rpc?.method === 'initialize') {
    const offered = (rpc.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    return typeof offered === 'string' ? offered : undefined;
  }
  const header = req.headers['mcp-protocol-version'];
  if (typeof header === 'string') return header;
  const envelope = rpc?.params?._meta?.[ENVELOPE_VERSION_KEY];
  return typeof envelope === 'string' ? envelope : undefined;
}

/** Starts a fault-injection MCP server on loopback. Tools: `echo`, `search`, `search_mirror`, `record`, `record_once`. */
export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
  const state = createFaultState();
  state.acceptedVersions = options.acceptVersions;
  const handler = createMcpHandler(() => createFaultMcpServer(state));

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    if (req.method === 'POST' && body === undefined)
      return rpcError(res, 413, null, -32600, 'Request body too large.');
    const rpc = body === undefined ? undefined : parseRpc(body);
    let fault: Fault | undefined;
    if (rpc?.method === 'tools/call' && typeof rpc.params?.name === 'string') {
      const tool = rpc.params.name;
      state.requests.set(tool, (state.requests.get(tool) ?? 0) + 1);
      fault = state.script.take(tool);
    }
    if (rpc?.method === 'notifications/cancelled') cancelInflight(rpc);
    const version = requestedVersion(req, rpc);
    const accepted = state.acceptedVersions;
    if (accepted && version !== undefined && !accepted.includes(version)) {
      const message = `Unsupported protocol version: ${version}`;
      return rpcError(res, 400, rpc?.id, -32022, message, { supported: accepted, requested: version });
    }
    switch (fault?.kind) {
      case 'unsupported_version':
        return rpcError(
          res,
          400,
          rpc?.id,
          -32022,
          `Unsupported protocol version: ${version ?? 'none named'}`,
          {
            supported: fault.supported,
            ...(version === undefined ? {} : { requested: version }),
          },
        );
      case 'protocol_error':
        return rpcError(
          res,
          fault.httpStatus ?? 200,
          rpc?.id,
          fault.code,
          fault.message ?? 'Injected error.',
          fault.data,
        );
      case 'http_status':
        res.writeHead(fault.status, {
          'content-type': 'text/plain',
          ...(fault.retryAfterSeconds === undefined
            ? {}
            : { 'retry-after': String(fault.retryAfterSeconds) }),
        });
        res.end(`Injected HTTP ${fault.status}.`);
        return;
      case 'drop_before':
        req.socket.destroy();
        return;
      default:
        break;
    }
    await dispatch(req, res, body, rpc, fault);
  }

  function cancelInflight(rpc: RpcShape): void {
    const params = rpc.params as { requestId?: unknown; reason?: unknown } | undefined;
    const id = params?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    state.inflight.get(id)?.abort(typeof params?.reason === 'string' ? params.reason : 'Cancelled');
  }

  async function dispatch(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer | undefined,
    rpc: RpcShape | undefined,
    fault: Fault | undefined,
  ): Promise<void> {
    const aborter = new AbortController();
    res.on('close', () => {
      if (res.writableFinished) return;
      aborter.abort();
      if (rpc?.method === 'tools/call' && (typeof rpc.id === 'string' || typeof rpc.id === 'number')) {
        state.inflight.get(rpc.id)?.abort('Connection closed');
      }
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    }
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      signal: aborter.signal,
      ...(body === undefined ? {} : { body }),
    });
    const response = await takenFault.run({ fault }, () =>
      handler.fetch(request, rpc === undefined ? {} : { parsedBody: rpc }),
    );
    if (fault?.kind === 'drop_after') {
      await response.text().catch(() => '');
      req.socket.destroy();
      return;
    }
    const outHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      outHeaders[name] = value;
    });
    res.writeHead(response.status, outHeaders);
    if (response.body === null) return void res.end();
    const reader = response.body.getReader();
    aborter.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), {
      once: true,
    });
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
    } catch {
      // the client went away; the abort above already told the handler
    }
    res.end();
  }

  const server = createServer((req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) rpcError(res, 500, null, -32603, 'The fault server failed unexpectedly.');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;
  return {
    url,
    state,
    inject: (tool, ...faults) => state.script.push(tool, ...faults),
    setAcceptedVersions: (versions) => {
      state.acceptedVersions = versions;
    },
    executions: (tool) => state.executions.filter((e) => tool === undefined || e.tool === tool),
    requests: (tool) => state.requests.get(tool) ?? 0,
    close: async () => {
      state.closing.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.close();
    },
  };
}
