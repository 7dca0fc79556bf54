import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHandler, InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { decodeFailure } from '@recourse/core';
import { createRecourseServer } from './recourse-server.ts';
import { captureLogger, member, TEST_POLICY } from './testing/harness.ts';
import { createTestTools } from './testing/test-tools.ts';

// The pipeline's own tools/list and tools/call handlers, served by the SDK's own entry points on both eras.
const { tools } = createTestTools();
const recourse = createRecourseServer({
  name: 'eras-test',
  version: '0.0.1',
  tools,
  permissions: TEST_POLICY,
  logger: captureLogger().logger,
});
const principal = member('m_1', 'viewer');

function newClient(era: 'legacy' | 'modern'): Client {
  return new Client(
    { name: 'eras-test', version: '0.0.1' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
}

async function exercise(client: Client): Promise<void> {
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toContain('echo');
  const ok = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  expect(ok.isError).toBeFalsy();
  expect(ok.structuredContent).toEqual({ text: 'hi', member: 'm_1' });
  const refused = await client.callTool({ name: 'echo', arguments: { text: 'hi', priority: 'urgent' } });
  expect(refused.isError).toBe(true);
  expect(decodeFailure(refused)).toMatchObject({ category: 'validation', code: 'INVALID_ARGUMENTS' });
  const denied = await client.callTool({ name: 'notes_add', arguments: { text: 'x' } });
  expect(decodeFailure(denied)).toMatchObject({ category: 'permission', code: 'PERMISSION_DENIED' });
  await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
    code: -32602,
    data: { tool: 'nope' },
  });
}

describe('over createMcpHandler (HTTP)', () => {
  let server: http.Server;
  let url: URL;
  beforeAll(async () => {
    const handler = createMcpHandler((ctx) =>
      recourse.createMcpServer({
        principal,
        transport: ctx.era === 'modern' ? 'http-modern' : 'http-legacy',
      }),
    );
    const nodeHandler = toNodeHandler(handler);
    server = http.createServer((req, res) => {
      void nodeHandler(req as Parameters<typeof nodeHandler>[0], res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}/mcp`);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(['legacy', 'modern'] as const)('serves the %s era', async (era) => {
    const client = newClient(era);
    await client.connect(new StreamableHTTPClientTransport(url));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });
});

describe('over serveStdio', () => {
  it.each(['legacy', 'modern'] as const)('serves the %s era', async (era) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(() => recourse.createMcpServer({ principal, transport: 'stdio' }), {
      transport: serverSide,
    });
    const client = newClient(era);
    await client.connect(clientSide);
    try {
      await exercise(client);
    } finally {
      await client.close();
      await handle.close();
    }
  });
});
