import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { ProgressRoutes } from './progress-routes.ts';

let open: { client: Client; server: Server } | undefined;

afterEach(async () => {
  await open?.client.close();
  await open?.server.close();
  open = undefined;
});

async function connected(routes: ProgressRoutes): Promise<Server> {
  const server = new Server({ name: 'progress', version: '0.0.1' }, { capabilities: {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0.0.1' });
  routes.install(client);
  await client.connect(clientSide);
  open = { client, server };
  return server;
}

describe('ProgressRoutes', () => {
  it("passes a token's progress to its route only while the route is open, and ignores other tokens", async () => {
    const routes = new ProgressRoutes();
    const server = await connected(routes);
    const seen: string[] = [];
    const first = routes.open({
      progress: (p) => void seen.push(`first ${String(p.progress)}/${String(p.total)}`),
    });
    const second = routes.open({
      progress: (p) => void seen.push(`second ${String(p.progress)} ${p.message ?? ''}`),
    });
    expect(first).not.toBe(second);
    const send = (progressToken: string | number, progress: number, extra = {}) =>
      server.notification({
        method: 'notifications/progress',
        params: { progressToken, progress, ...extra },
      });
    await send(first, 1, { total: 4 });
    await send(second, 2, { message: 'halfway' });
    await send(Number(first), 3);
    await send(`${first}${second}`, 3);
    await send(` ${first}`, 3);
    await send(`${first}.0`, 3);
    await send('someone-else', 4);
    await expect.poll(() => seen.length).toBe(2);
    routes.close(first);
    await send(first, 5);
    await send(second, 6);
    await expect.poll(() => seen.length).toBe(3);
    expect(seen).toEqual(['first 1/4', 'second 2 halfway', 'second 6 ']);
  });
});
