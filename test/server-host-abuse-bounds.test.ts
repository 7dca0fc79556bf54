/**
 * Bounds on what one client can make the HTTP host hold or send. Slow senders cannot hold its connections: a
 * request whose body trickles in is answered 408 and closed once the request time runs out, and connections
 * beyond the cap are closed as they arrive, while other clients keep being served. A JSON-RPC batch, one request
 * to the rate limit and the flood guard, holds at most 16 messages.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startHttpHost, type HttpHost } from '../packages/server/src/http/http-host.ts';
import { createDemoFactory, createDemoState } from '../packages/server/src/http/testing/demo-server.ts';

/** Opens a connection that sends headers and part of a body, then nothing; resolves with what came back. */
function slowSender(port: number): { socket: Socket; closed: Promise<{ text: string; afterMs: number }> } {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  socket.on('error', () => undefined);
  socket.on('connect', () => {
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
    );
  });
  const closed = new Promise<{ text: string; afterMs: number }>((resolve) =>
    socket.on('close', () => resolve({ text, afterMs: Date.now() - started })),
  );
  return { socket, closed };
}

describe('bounds on one client', () => {
  let host: HttpHost;
  beforeAll(async () => {
    host = await startHttpHost({
      factory: createDemoFactory(createDemoState()),
      logger: pino({ enabled: false }),
      requestTimeoutMs: 1000,
      maxConnections: 8,
    });
  });
  afterAll(() => host.close());

  it('answers a body that never finishes with 408 and closes it once the request time runs out', async () => {
    const { closed, socket } = slowSender(host.port);
    const outcome = await Promise.race([
      closed,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 15_000)),
    ]);
    socket.destroy();
    expect(outcome, 'the slow connection was still open after 15 s').toBeDefined();
    expect(outcome?.text).toMatch(/^HTTP\/1\.1 408/);
    // Well under Node's own 300 s, with room for a slow machine.
    expect(outcome?.afterMs).toBeLessThan(15_000);
  });

  it('refuses a batch of 100 tools/list with 400 / -32600 saying how many are accepted, and serves a batch of 16', async () => {
    const post = (n: number) =>
      fetch(host.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-03-26',
        },
        body: JSON.stringify(
          Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list', params: {} })),
        ),
      });
    const refused = await post(100);
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toContain('a batch of 100 JSON-RPC messages; at most 16 are accepted');
    const served = await post(16);
    expect(served.status).not.toBe(400);
    await served.arrayBuffer();
  });

  it('closes connections beyond the cap and serves others once the slow ones are gone', async () => {
    const senders = Array.from({ length: 12 }, () => slowSender(host.port));
    const closes = await Promise.all(
      senders.map((s) =>
        Promise.race([
          s.closed,
          new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 15_000)),
        ]),
      ),
    );
    for (const s of senders) s.socket.destroy();
    expect(closes.every((c) => c !== undefined)).toBe(true);
    // The four beyond the cap of 8 were closed at once, without an answer.
    expect(closes.filter((c) => c?.text === '').length).toBeGreaterThanOrEqual(4);
    const after = await fetch(`http://127.0.0.1:${host.port}/.well-known/oauth-protected-resource/mcp`);
    expect(after.status).toBeLessThan(500);
  });
});
