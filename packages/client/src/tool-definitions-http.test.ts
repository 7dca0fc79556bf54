import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/server';
import { createRecourseClient } from './index.ts';
import type { RecourseClient } from './index.ts';
import { hostSdkServers } from './sdk-http-host.test-helper.ts';
import type { SdkHttpHost } from './sdk-http-host.test-helper.ts';

const PLAIN = { type: 'object', properties: { region: { type: 'string' } } } as const;
const WITH_HEADER = {
  type: 'object',
  properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
} as const;

/** Whether the server's `lookup` declares its `region` argument as an `Mcp-Param-Region` header. */
let declares = false;
/** The `Mcp-Param-Region` header of every `tools/call` request the server received, in order. */
const received: (string | undefined)[] = [];

/** A server whose `lookup` tool can start declaring a header without telling the client its tools changed. */
function regionServer(): McpServer {
  const server = new McpServer({ name: 'regions', version: '0.0.1' });
  // The SDK checks `Mcp-Param-*` headers against this before dispatch.
  server.toolInputSchemaJson = () => (declares ? WITH_HEADER : PLAIN);
  const low = server.server;
  low.registerCapabilities({ tools: {} });
  low.setRequestHandler('tools/list', () => ({
    tools: [{ name: 'lookup', inputSchema: declares ? WITH_HEADER : PLAIN }],
  }));
  low.setRequestHandler('tools/call', () => ({ content: [{ type: 'text', text: 'found' }] }));
  return server;
}

let host: SdkHttpHost;
let url: string;
const clients: RecourseClient[] = [];

beforeAll(async () => {
  host = await hostSdkServers(regionServer, (req) => {
    if (req.headers['mcp-method'] !== 'tools/call') return;
    const value = req.headers['mcp-param-region'];
    received.push(typeof value === 'string' ? value : undefined);
  });
  url = host.url;
});
afterAll(() => host.close());
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  received.length = 0;
});

function client(): RecourseClient {
  const made = createRecourseClient({ target: { url }, protocol: 'modern', retry: { maxAttempts: 1 } });
  clients.push(made);
  return made;
}

describe('listed tool definitions on HTTP (2026-07-28)', () => {
  it('mirrors the header of a tool that declares one on every call, with no refused request', async () => {
    declares = true;
    const recourse = client();
    for (const region of ['eu', 'us']) {
      const { result } = await recourse.callTool('lookup', { region });
      expect(result.content).toEqual([{ type: 'text', text: 'found' }]);
    }
    expect(received).toEqual(['eu', 'us']);
  });

  it('recovers within the attempt when a tool starts declaring a header its listing did not show', async () => {
    declares = false;
    const recourse = client();
    await recourse.callTool('lookup', { region: 'eu' });
    expect(received).toEqual([undefined]);
    declares = true; // the server changes the tool without notifications/tools/list_changed
    const { result, attempts } = await recourse.callTool('lookup', { region: 'us' });
    expect(result.content).toEqual([{ type: 'text', text: 'found' }]);
    expect(attempts.map((a) => a.outcome)).toEqual(['ok']);
    // Refused twice for the missing header (the kept definition, then the SDK's stale listing), then sent with it.
    expect(received).toEqual([undefined, undefined, undefined, 'us']);
    await recourse.callTool('lookup', { region: 'eu' });
    expect(received.at(-1)).toBe('eu');
  });
});
