/**
 * Conformance mode over real sockets: the fixtures sit beside the board's tools and pass the listing rules
 * the suites apply to every entry, unauthenticated callers act as the read-only conformance member, tokens keep
 * working, and 2026-07-28 multi-round trips verify their signed state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { HttpHost } from '@recourse/server';
import { createBoardServer } from '../board-server.ts';
import { ensureOwner } from '../bootstrap.ts';
import { startConformanceHost } from './conformance-host.ts';

const work = mkdtempSync(join(tmpdir(), 'recourse-conformance-mode-'));
let board: ReturnType<typeof createBoardServer>;
let host: HttpHost;
let ownerToken = '';

async function connect(options: { token?: string; modern?: boolean } = {}): Promise<Client> {
  const client = new Client(
    { name: 'conformance-mode-test', version: '1' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(options.modern === true ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { ok: true } }));
  const headers = options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(host.url), { requestInit: { headers } }));
  return client;
}

const textOf = (result: { content?: unknown }): string =>
  (result.content as { type: string; text?: string }[]).map((item) => item.text ?? '').join('\n');

beforeAll(async () => {
  const logger = pino({ enabled: false });
  board = createBoardServer({ dataDir: join(work, 'data'), logger });
  ownerToken = (await ensureOwner(board.services))?.token ?? '';
  host = await startConformanceHost(board, { logger });
});

afterAll(async () => {
  await host.close();
  await board.close();
  rmSync(work, { recursive: true, force: true });
});

describe('conformance mode', () => {
  it('lists board tools beside the fixtures; every tool, prompt and resource has what the suites require', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['tasks_get', 'whoami', 'test_simple_text', 'test_sampling']),
    );
    for (const tool of tools) expect(tool.description, tool.name).toBeTruthy();
    for (const prompt of (await client.listPrompts()).prompts)
      expect(prompt.description, prompt.name).toBeTruthy();
    for (const resource of (await client.listResources()).resources)
      expect(resource.name, resource.uri).toBeTruthy();
    await client.close();
  });

  it('serves callers without a token as the read-only conformance member', async () => {
    const client = await connect();
    expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toContain('Conformance suite');
    const refused = await client.callTool({ name: 'tasks_create', arguments: { title: 'Not allowed' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('viewer');
    await client.close();
  });

  it('still serves a token as its member', async () => {
    const client = await connect({ token: ownerToken });
    expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toContain('role owner');
    await client.close();
  });

  it('completes a 2026-07-28 multi-round trip whose signed requestState comes back intact', async () => {
    const client = await connect({ modern: true });
    const result = await client.callTool({ name: 'test_input_required_result_request_state', arguments: {} });
    expect(textOf(result)).toContain('state-ok');
    await client.close();
  });

  it('refuses a tampered requestState with JSON-RPC -32602', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const post = async (params: Record<string, unknown>) => {
      const res = await fetch(host.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'test_input_required_result_tampered_state',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: Math.floor(Math.random() * 1e6),
          method: 'tools/call',
          params: {
            name: 'test_input_required_result_tampered_state',
            arguments: {},
            _meta: meta,
            ...params,
          },
        }),
      });
      return (await res.json()) as { result?: { requestState?: string }; error?: { code: number } };
    };
    const first = await post({});
    const state = first.result?.requestState ?? '';
    expect(state).not.toBe('');
    const tampered = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`;
    const retry = await post({
      requestState: tampered,
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
    });
    expect(retry.error?.code).toBe(-32602);
  });
});
