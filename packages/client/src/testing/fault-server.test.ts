import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startFaultServer } from './fault-server.ts';
import type { FaultServer } from './fault-server.ts';
import { startFlakyProxy } from './flaky-proxy.ts';

let server: FaultServer;
beforeEach(async () => {
  server = await startFaultServer();
});
afterEach(async () => {
  await server.close();
});

async function sdkClient(url: string): Promise<Client> {
  const client = new Client({ name: 'plain-sdk', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

function rpc(id: number, name: string, args: Record<string, unknown>): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  };
}

describe('the fault server, as seen by any MCP client', () => {
  it('is scripted through its control tools and reports what reached it', async () => {
    const client = await sdkClient(server.url);
    try {
      await client.callTool({
        name: 'fault_inject',
        arguments: {
          tool: 'echo',
          faults: [{ kind: 'tool_failure', category: 'rate_limit', retryAfterMs: 1200 }],
        },
      });
      const failed = await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      expect(failed.isError).toBe(true);
      expect(failed._meta?.['dev.recourse/failure']).toMatchObject({
        category: 'rate_limit',
        retryable: true,
        retryAfterMs: 1200,
        changed: false,
      });
      await client.callTool({ name: 'echo', arguments: { text: 'fine' } });
      const log = await client.callTool({ name: 'fault_log', arguments: {} });
      expect(log.structuredContent).toMatchObject({
        executions: [{ tool: 'echo', args: { text: 'fine' } }],
        cancellations: [],
        pending: 0,
      });
      const refused = await client.callTool({
        name: 'fault_inject',
        arguments: { tool: 'echo', faults: [{ kind: 'explode' }] },
      });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('answers HTTP statuses with Retry-After, and JSON-RPC errors with any status', async () => {
    server.inject('echo', { kind: 'http_status', status: 429, retryAfterSeconds: 7 });
    server.inject('echo', {
      kind: 'protocol_error',
      code: -32050,
      message: 'custom',
      data: { a: 1 },
      httpStatus: 502,
    });
    const first = await fetch(server.url, rpc(1, 'echo', { text: 'x' }));
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    const second = await fetch(server.url, rpc(2, 'echo', { text: 'x' }));
    expect(second.status).toBe(502);
    expect(await second.json()).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32050, message: 'custom', data: { a: 1 } },
    });
    expect(server.requests('echo')).toBe(2);
    expect(server.executions('echo')).toHaveLength(0);
  });

  it('drops the connection before or after the work', async () => {
    server.inject('record', { kind: 'drop_before' }, { kind: 'drop_after' });
    await expect(fetch(server.url, rpc(1, 'record', { note: 'a' }))).rejects.toThrow();
    expect(server.executions('record')).toHaveLength(0);
    await expect(fetch(server.url, rpc(2, 'record', { note: 'b' }))).rejects.toThrow();
    expect(server.executions('record')).toHaveLength(1);
  });
});

describe('the flaky proxy', () => {
  it('forwards calls unchanged unless told otherwise', async () => {
    const proxy = await startFlakyProxy({
      target: server.url,
      decide: (r) => (r.tool === 'search' ? { status: 503, retryAfterSeconds: 1 } : 'pass'),
    });
    const client = await sdkClient(proxy.url);
    try {
      const echoed = await client.callTool({ name: 'echo', arguments: { text: 'through' } });
      expect(echoed.content).toEqual([{ type: 'text', text: 'through' }]);
      await expect(client.callTool({ name: 'search', arguments: { query: 'q' } })).rejects.toMatchObject({
        data: { status: 503 },
      });
      expect(proxy.counts.status).toBe(1);
      expect(server.requests('search')).toBe(0);
    } finally {
      await client.close();
      await proxy.close();
    }
  });
});
