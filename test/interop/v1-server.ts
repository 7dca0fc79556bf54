/**
 * An MCP server built the way most deployed servers are: the v1 SDK (`@modelcontextprotocol/sdk`) and its
 * stock `McpServer`, over stateless Streamable HTTP (a fresh server and transport per request, closed when the
 * response closes), stateful Streamable HTTP (one transport per `Mcp-Session-Id`) or stdio.
 *
 * Run: `node --import tsx test/interop/v1-server.ts stateless|stateful|stdio`. Over HTTP it listens on a free
 * loopback port and prints `READY <url>` on stdout.
 *
 * Tools: `slow` (waits, recording whether it was told to stop), `progressing` (the same, sending progress
 * notifications), `flaky` (read-only; fails transiently a number of times per key), `flaky_write` (the same
 * without any hint, so a client may not repeat it), `throwing` (throws an Error with the given message),
 * `dropping` (HTTP only: does its work, then destroys the connection instead of answering, the first `drops` times
 * per key), `throttled` (HTTP only: a rate limiter in front of the server refuses it with 429 and
 * `Retry-After: 1` the first `refusals` times per key, before it reaches the MCP layer), `fails_like` (runs a
 * real failing operation, see `real-failures.ts`), `ask` (asks the client for a name by elicitation; needs a
 * session: stateful HTTP or stdio) and `interop_log` (the record of all of these).
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
import {
  FLAKY_TEXT,
  NAME_SCHEMA,
  dropAfterRun,
  greeting,
  flakyShouldFail,
  recordText,
  runProgressing,
  runSlow,
  throttleRefuses,
  throttledRan,
  transportArg,
} from './interop-record.ts';

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
    'progressing',
    {
      description: 'Waits ms milliseconds, reporting progress every everyMs, then answers done.',
      inputSchema: { ms: z.number().int().min(0), everyMs: z.number().int().min(10), tag: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ ms, everyMs, tag }, extra) => {
      const progressToken = extra._meta?.progressToken;
      const finished = await runProgressing(tag, ms, everyMs, extra.signal, (progress, total) =>
        progressToken === undefined
          ? Promise.resolve()
          : extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress, total },
            }),
      );
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
    'flaky_write',
    {
      description: 'Like flaky, but a write: no read-only or idempotent hint.',
      inputSchema: { key: z.string(), failures: z.number().int().min(0) },
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
    {
      description:
        'Records a run of key, then destroys the HTTP connection instead of answering (the first drops times).',
      inputSchema: { key: z.string(), drops: z.number().int().min(0) },
    },
    ({ key, drops }) => {
      if (!dropAfterRun(key, drops)) return { content: [{ type: 'text', text: 'ok' }] };
      currentResponse.getStore()?.socket?.destroy();
      return new Promise(() => undefined);
    },
  );
  server.registerTool(
    'throttled',
    {
      description: 'Answers ok; over HTTP the rate limiter refuses it the first refusals times per key.',
      inputSchema: { key: z.string(), refusals: z.number().int().min(0) },
    },
    ({ key }) => {
      throttledRan(key);
      return { content: [{ type: 'text', text: 'ok' }] };
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
  server.registerTool(
    'ask',
    {
      description:
        'Asks the client for a name (elicitation) and greets it, or says what the client answered.',
      inputSchema: { question: z.string() },
    },
    async ({ question }, extra) => {
      const answer = await server.server.elicitInput(
        { mode: 'form', message: question, requestedSchema: NAME_SCHEMA },
        { relatedRequestId: extra.requestId },
      );
      return { content: [{ type: 'text', text: greeting(answer) }] };
    },
  );
  server.registerTool('interop_log', { description: 'The record of slow and flaky runs.' }, () => ({
    content: [{ type: 'text', text: recordText() }],
  }));
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/**
 * The rate limiter in front of the MCP handler: a `tools/call` of `throttled` is refused with 429, `Retry-After: 1`
 * and express-rate-limit's default text while its key has been refused fewer than `refusals` times. True when it
 * answered.
 */
function throttled(body: unknown, res: ServerResponse): boolean {
  const call = body as { method?: unknown; params?: { name?: unknown; arguments?: Record<string, unknown> } };
  if (call?.method !== 'tools/call' || call.params?.name !== 'throttled') return false;
  const { key, refusals } = call.params.arguments ?? {};
  if (typeof key !== 'string' || typeof refusals !== 'number' || !throttleRefuses(key, refusals))
    return false;
  res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '1' });
  res.end('Too many requests, please try again later.');
  return true;
}

async function statelessHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const body = await readJson(req);
  if (throttled(body, res)) return;
  const server = build();
  // No session id generator: stateless, one request per transport.
  const transport = new StreamableHTTPServerTransport({});
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await currentResponse.run(res, () => transport.handleRequest(req, res, body));
}

const sessions = new Map<string, StreamableHTTPServerTransport>();

async function statefulHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const id = req.headers['mcp-session-id'];
  const existing = typeof id === 'string' ? sessions.get(id) : undefined;
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  if (throttled(body, res)) return;
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
