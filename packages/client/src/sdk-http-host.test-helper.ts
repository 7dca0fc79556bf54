/**
 * For the client's tests: SDK servers hosted over HTTP on loopback, a fresh one per request from a factory, the
 * way `createMcpHandler` serves them.
 *
 * @packageDocumentation
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';

/** A listening host: its MCP endpoint, and how to stop it. */
export interface SdkHttpHost {
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on a free loopback port; `observe` sees every request before the SDK handles it. */
export async function hostSdkServers(
  factory: () => McpServer,
  observe?: (request: http.IncomingMessage) => void,
): Promise<SdkHttpHost> {
  const handler = toNodeHandler(createMcpHandler(factory));
  const server = http.createServer((req, res) => {
    observe?.(req);
    void handler(req as Parameters<typeof handler>[0], res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
