import { Client } from '@modelcontextprotocol/client';
import type { Tool } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolDefinitions } from './tool-definitions.ts';

let open: { client: Client; server: Server } | undefined;

/** A low-level server (it checks no output schema itself) whose `sum` answers whatever `setAnswer` set. */
async function connected(
  more: Tool[] = [],
): Promise<{ client: Client; server: Server; setAnswer: (v: unknown) => void }> {
  const server = new Server(
    { name: 'definitions', version: '0.0.1' },
    { capabilities: { tools: { listChanged: true } } },
  );
  let answer: unknown = { total: 3 };
  server.setRequestHandler('tools/list', () => ({
    tools: [
      {
        name: 'sum',
        inputSchema: { type: 'object', properties: { values: { type: 'array' } } },
        outputSchema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
      },
      { name: 'other', inputSchema: { type: 'object' } },
      ...more,
    ],
  }));
  server.setRequestHandler('tools/call', () => ({
    content: [{ type: 'text', text: 'done' }],
    structuredContent: answer as Record<string, unknown>,
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0.0.1' });
  await client.connect(clientSide);
  open = { client, server };
  return { client, server, setAnswer: (v) => (answer = v) };
}

afterEach(async () => {
  await open?.client.close();
  await open?.server.close();
  open = undefined;
});

describe('ToolDefinitions', () => {
  it('keeps nothing for a client it does not track', async () => {
    const { client } = await connected();
    const definitions = new ToolDefinitions();
    expect((await definitions.list(client)).map((t) => t.name).sort()).toEqual(['other', 'sum']);
    expect(definitions.of(client, 'sum')).toBeUndefined();
  });

  it('hands over the output schema, so the SDK still rejects structured content that breaks it', async () => {
    const { client, setAnswer } = await connected();
    const definitions = new ToolDefinitions();
    definitions.track(client, false);
    await definitions.list(client);
    const sum = definitions.of(client, 'sum');
    if (sum === undefined) throw new Error('sum was listed, so its definition must be kept');
    expect(sum.inputSchema).toEqual({ type: 'object' });
    expect(sum.outputSchema).toMatchObject({ properties: { total: { type: 'number' } } });
    const params = { name: 'sum', arguments: { values: [1, 2] } };
    expect((await client.callTool(params, { toolDefinition: sum })).structuredContent).toEqual({ total: 3 });
    setAnswer({ total: 'three' });
    await expect(client.callTool(params, { toolDefinition: sum })).rejects.toThrow(/output schema/);
    expect(definitions.of(client, 'missing')).toBeUndefined();
  });

  it('on a client that mirrors headers, keeps no definition of a tool that declares one', async () => {
    const { client } = await connected([
      {
        name: 'regional',
        inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
      },
    ]);
    const definitions = new ToolDefinitions();
    definitions.track(client, true);
    await definitions.list(client);
    expect(definitions.of(client, 'regional')).toBeUndefined();
    expect(definitions.of(client, 'sum')?.inputSchema).toEqual({ type: 'object' });
    definitions.forget(client);
    expect(definitions.of(client, 'sum')).toBeUndefined();
  });

  it('drops the definitions when the server says its tools changed, until they are listed again', async () => {
    const { client, server } = await connected();
    const definitions = new ToolDefinitions();
    definitions.track(client, false);
    await definitions.list(client);
    expect(definitions.of(client, 'sum')).toBeDefined();
    await server.sendToolListChanged();
    await expect.poll(() => definitions.of(client, 'sum'), { timeout: 5000 }).toBeUndefined();
    await definitions.list(client);
    expect(definitions.of(client, 'sum')).toBeDefined();
  });
});
