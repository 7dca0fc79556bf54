/**
 * Test support: a local HTTP server on 127.0.0.1 that accepts connections and never answers (an import source
 * that hangs), except for the paths `routes` serves. `close()` drops the hanging connections.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A running silent source: its base URL (no trailing slash) and `close()`. */
export interface SilentSource {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the server; `routes` answers some paths (by `req.url`), every other request hangs. */
export async function startSilentSource(
  routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {},
): Promise<SilentSource> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => routes[req.url ?? '']?.(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
