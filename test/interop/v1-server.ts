/**
 * An MCP server built the way most deployed servers are: the v1 SDK (`@modelcontextprotocol/sdk`) and its
 * stock `McpServer`, over stateless Streamable HTTP (a fresh server and transport per request, closed when the
 * response closes), stateful Streamable HTTP (one transport per `Mcp-Session-Id`) or stdio.
 *
 * Run: `node --import tsx test/interop/v1-server.ts stateless|stateful|stdio`. Over HTTP it listens on a free
 * loopback port and prints `READY <url>` on stdout.
 *
 * Tools: `slow` (waits, recording whether it was told to stop), `flaky` (fails transiently a number of times
 * per key), `throwing` (throws an Error with the given message), `dropping` (HTTP only: destroys the
 * connection before answering), `fails_like` (runs a real failing operation, see `real-failures.ts`) and
 * `interop_log` (the record of slow and flaky runs).
 */
import { randomUUID } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { FAILURE_CASES, failLike } from './real-failures.ts';
import { FLAKY_TEXT, flakyShouldFail, recordText, runSlow, transportArg } from './interop-record.ts';

const currentResponse = new AsyncLocalStorage<ServerResponse>();

function build(): McpServer {
  const server = new McpServer({ name: 'interop-v1', version: '1.0.0' });
  server.registerTool(
    'slow',
    {
      description: 'Waits ms milliseconds, then answers done.',
      inputSchema: { ms: z.number().int().min(0), tag: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ ms, tag }, extra) => {
      const finished = await runSlow(tag, ms, extra.signal);
      return { content: [{ type: 'text', text: finished ? 'done' : 'stopped' }] };
    },
  );
  server.registerTool(
    'flaky',
    {
      description: 'Fails transiently `failures` times for a key, then answers ok.',
      inputSchema: { key: z.string(), failures: z.number().int().min(0) },
      annotations: { readOnlyHint: true },
    },
    ({ key, failures }) =>
      flakyShouldFail(key, failures)
        ? { isError: true, content: [{ type: 'text', text: FLAKY_TEXT }] }
        : { content: [{ type: 'text', text: 'ok' }] },
  );
  server.registerTool(
    'throwing',
    {
      description: 'Throws an Error with the given message.',
      inputSchema: { message: z.string() },
    },
    ({ message }) => {
      throw new Error(message);
    },
  );
  server.registerTool(
    'dropping',
    { description: 'Destroys the HTTP connection before answering.', inputSchema: {} },
    () => {
      currentResponse.getStore()?.socket?.destroy();
      return new Promise(() => undefined);
    },
  );
  server.registerTool(
    'fails_like',
    {
      description: 'Runs an operation that fails in the field and throws what it threw.',
      inputSchema: { how: z.enum(FAILURE_CASES) },
    },
    ({ how }) => failLike(how),
  );
  server.registerTool('interop_log', { description: 'The record of slow and flaky runs.' }, () => ({
    content: [{ type: 'text', text: recordText() }],
  }));
  return server;
}

async function statelessHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const server = build();
  // No session id generator: stateless, one request per transport.
  const transport = new StreamableHTTPServerTransport({});
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await currentResponse.run(res, () => transport.handleRequest(req, res));
}

const sessions = new Map<string, StreamableHTTPServerTransport>();

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

async function statefulHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const id = req.headers['mcp-session-id'];
  const existing = typeof id === 'string' ? sessions.get(id) : undefined;
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  if (existing) {
    await currentResponse.run(res, () => existing.handleRequest(req, res, body));
    return;
  }
  if (req.method !== 'POST' || !isInitializeRequest(body)) {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
      }),
    );
    return;
  }
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (sessionId) => {
      sessions.set(sessionId, transport);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  await build().connect(transport);
  await transport.handleRequest(req, res, body);
}

const mode = transportArg();
if (mode === 'stdio') {
  await build().connect(new StdioServerTransport());
} else {
  const handler = mode === 'stateless' ? statelessHandler : statefulHandler;
  const http = createServer((req, res) => {
    handler(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  http.listen(0, '127.0.0.1', () => {
    const { port } = http.address() as AddressInfo;
    process.stdout.write(`READY http://127.0.0.1:${String(port)}/mcp\n`);
  });
}
