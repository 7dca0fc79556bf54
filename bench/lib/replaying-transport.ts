/**
 * A transport for measuring a client's own work per call: it stands for stdio (a `StdioClientTransport` that
 * never spawns, so clients treat it as stdio) and talks to an SDK echo server (2026-07-28, `serveStdio` over an
 * in-memory pair) in the same process. The handshake and `tools/list` go to the server; every `tools/call` after
 * the first is answered with the first one's result on the next turn of the event loop, so neither a server nor
 * a pipe is in what a batch of calls costs.
 *
 * @packageDocumentation
 */
import * as z from 'zod/v4';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

/** The bare SDK echo server (`bench/servers/bare-sdk.ts`), built in this process. */
export function echoServer(): McpServer {
  const server = new McpServer({ name: 'bare-echo', version: '0.0.1' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

/** The first `tools/call` result the server gave; later calls are answered with it. */
let answer: unknown;

/** See the file comment. */
export class ReplayingTransport extends StdioClientTransport {
  readonly #inner: InMemoryTransport;
  readonly #asked = new Set<unknown>();

  constructor() {
    super({ command: 'unused' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    serveStdio(echoServer, { transport: serverSide });
    this.#inner = clientSide;
  }

  override start(): Promise<void> {
    this.#inner.onmessage = (message: JSONRPCMessage) => {
      if ('id' in message && this.#asked.delete(message.id) && 'result' in message) answer = message.result;
      this.onmessage?.(message);
    };
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (error: Error) => this.onerror?.(error);
    return this.#inner.start();
  }

  override send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) {
      const { id } = message;
      if (answer === undefined) this.#asked.add(id);
      else {
        setImmediate(() => this.onmessage?.({ jsonrpc: '2.0', id, result: answer } as JSONRPCMessage));
        return Promise.resolve();
      }
    }
    return this.#inner.send(message);
  }

  override close(): Promise<void> {
    return this.#inner.close();
  }
}
