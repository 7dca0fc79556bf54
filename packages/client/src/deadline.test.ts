import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecourseClient } from './index.ts';
import type { RecourseClient } from './index.ts';
import { startFaultServer } from './testing/index.ts';
import type { FaultServer } from './testing/index.ts';

async function until(check: () => boolean, timeoutMs = 2000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
  return check();
}

async function failureOf(
  promise: Promise<unknown>,
): Promise<{ code?: string; kind?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; kind?: string; message: string };
  }
  throw new Error('expected the call to fail');
}

describe.each(['modern', 'legacy'] as const)('deadlines and cancellation (%s era)', (protocol) => {
  let server: FaultServer;
  let client: RecourseClient;

  beforeEach(async () => {
    server = await startFaultServer();
    client = createRecourseClient({ target: { url: server.url }, protocol, retry: { maxAttempts: 1 } });
    await client.callTool('echo', { text: 'warm up' });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('rejects a tool that never answers as timeout within the deadline plus 100 ms, and cancels it on the server', async () => {
    server.inject('echo', { kind: 'hang' });
    const started = Date.now();
    const error = await failureOf(client.callTool('echo', { text: 'x' }, { timeoutMs: 300 }));
    const elapsed = Date.now() - started;
    expect(error.code).toBe('CALL_TIMEOUT');
    expect(error.kind).toBe('local');
    expect(error.message).toMatch(/got no answer within its 300 ms deadline/);
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(400);
    expect(await until(() => server.state.cancellations.length === 1)).toBe(true);
    expect(server.state.cancellations[0]?.tool).toBe('echo');
    expect(server.executions('echo')).toHaveLength(1); // only the warm-up
  });

  it('lets progress every 100 ms carry a call past its base deadline but stops it at the hard maximum', async () => {
    server.inject('echo', { kind: 'stall_progress', everyMs: 100, steps: 50 });
    const seen: number[] = [];
    const started = Date.now();
    const error = await failureOf(
      client.callTool(
        'echo',
        { text: 'x' },
        { timeoutMs: 300, maxTimeoutMs: 1000, onProgress: (p) => seen.push(p.progress) },
      ),
    );
    const elapsed = Date.now() - started;
    expect(error.code).toBe('CALL_TIMEOUT');
    expect(error.message).toMatch(/did not finish within its hard maximum of 1000 ms/);
    expect(elapsed).toBeGreaterThan(600);
    expect(elapsed).toBeLessThan(1100);
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(await until(() => server.state.cancellations.length === 1)).toBe(true);
  });

  it('times out at the base deadline when progress stalls', async () => {
    server.inject('echo', { kind: 'stall_progress', everyMs: 100, steps: 3 });
    const started = Date.now();
    const error = await failureOf(
      client.callTool('echo', { text: 'x' }, { timeoutMs: 300, maxTimeoutMs: 5000 }),
    );
    const elapsed = Date.now() - started;
    expect(error.code).toBe('CALL_TIMEOUT');
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(900);
  });

  it('finishes a slow call that keeps reporting progress', async () => {
    server.inject('echo', { kind: 'progress', everyMs: 100, steps: 6 });
    const success = await client.callTool('echo', { text: 'done' }, { timeoutMs: 300, maxTimeoutMs: 3000 });
    expect(success.result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(success.attempts).toHaveLength(1);
    expect(success.attempts[0]?.durationMs).toBeGreaterThan(300);
  });

  it('reports a user abort as cancelled, never as timeout, and the server sees it', async () => {
    server.inject('echo', { kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user pressed stop')), 100);
    const error = await failureOf(
      client.callTool('echo', { text: 'x' }, { timeoutMs: 5000, signal: controller.signal }),
    );
    expect(error.code).toBe('CALL_CANCELLED');
    expect(error.kind).toBe('local');
    expect(await until(() => server.state.cancellations.length === 1)).toBe(true);
  });

  it('reports an abort signalled before the call as cancelled without sending it', async () => {
    const before = server.requests('echo');
    const error = await failureOf(client.callTool('echo', { text: 'x' }, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('CALL_CANCELLED');
    expect(server.requests('echo')).toBe(before);
  });
});

/** Runs `body` against an HTTP URL whose server accepts connections and never answers. */
async function withSilentServer(body: (client: RecourseClient) => Promise<void>): Promise<void> {
  const { createServer } = await import('node:net');
  const sockets = new Set<import('node:net').Socket>();
  const silent = createServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as import('node:net').AddressInfo;
  const client = createRecourseClient({
    target: { url: `http://127.0.0.1:${port}/mcp` },
    protocol: 'legacy',
  });
  try {
    await body(client);
  } finally {
    await client.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
}

describe('a server that accepts connections but never answers', () => {
  it('still ends the call as timeout at its deadline, even while connecting and listing tools', async () => {
    await withSilentServer(async (client) => {
      const started = Date.now();
      const error = await failureOf(client.callTool('echo', { text: 'x' }, { timeoutMs: 300 }));
      expect(error.code).toBe('CALL_TIMEOUT');
      expect(Date.now() - started).toBeLessThan(800);
    });
  });

  it('ends the call as cancelled soon after the caller aborts, even while connecting and listing tools', async () => {
    await withSilentServer(async (client) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('user pressed stop')), 100);
      const started = Date.now();
      const error = await failureOf(
        client.callTool('echo', { text: 'x' }, { timeoutMs: 5000, signal: controller.signal }),
      );
      expect(error.code).toBe('CALL_CANCELLED');
      expect(error.message).toMatch(/Nothing was sent/);
      // the abort is honoured at once, not when the 5 s deadline would have ended the listing
      expect(Date.now() - started).toBeLessThan(1500);
    });
  });
});
