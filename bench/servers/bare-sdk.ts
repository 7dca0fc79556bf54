/**
 * The bare SDK: the smallest SDK v2 server with one `echo` tool, hosted the way the SDK documents it
 * (`createMcpHandler` behind `toNodeHandler` on `node:http`, or `serveStdio`), with no guard of any kind.
 *
 * Usage: `node --import tsx bench/servers/bare-sdk.ts http|stdio`. The HTTP mode prints `READY <url>`.
 *
 * @packageDocumentation
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as z from 'zod/v4';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';

function echoServer(): McpServer {
  const server = new McpServer({ name: 'bare-echo', version: '0.0.1' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

if (process.argv[2] === 'stdio') {
  serveStdio(echoServer);
} else {
  const node = toNodeHandler(createMcpHandler(echoServer));
  // IncomingMessage is the shape toNodeHandler describes structurally (`method` may be undefined there).
  const server = createServer((req, res) => void node(req as unknown as NodeIncomingMessageLike, res));
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`READY http://127.0.0.1:${String(port)}/mcp\n`);
  });
}
// A normal exit on SIGTERM, so that `--cpu-prof` writes its profile.
process.once('SIGTERM', () => process.exit(0));
