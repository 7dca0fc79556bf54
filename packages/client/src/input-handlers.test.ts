import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_CAPABILITIES_META_KEY,
  InMemoryTransport,
  McpServer,
  inputRequired,
  inputResponse,
} from '@modelcontextprotocol/server';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { Connection } from './connection.ts';
import { createRecourseClient } from './index.ts';
import type { ProtocolMode, RecourseClient, RecourseClientOptions, ServerTarget } from './index.ts';
import { hostSdkServers } from './sdk-http-host.test-helper.ts';
import type { SdkHttpHost } from './sdk-http-host.test-helper.ts';

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** The client capabilities the server sees: the 2026 envelope, or the 2025 `initialize` declaration. */
function declared(server: McpServer, ctx: ServerContext): Record<string, unknown> {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const fromEnvelope = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return (fromEnvelope ?? server.server.getClientCapabilities() ?? {}) as Record<string, unknown>;
}

/** `ask` elicits a name (2026: an `input_required` result; 2025: the SDK's shim sends `elicitation/create`). */
function boardServer(): McpServer {
  const server = new McpServer({ name: 'asking', version: '0.0.1' });
  server.registerTool('ask', { description: 'Asks for a name, then greets it.' }, (ctx) => {
    const view = inputResponse(ctx.mcpReq.inputResponses, 'who');
    if (view.kind !== 'elicit') {
      return inputRequired({
        inputRequests: {
          who: inputRequired.elicit({
            message: 'What is your name?',
            requestedSchema: {
              type: 'object',
              properties: { name: { type: 'string' } },
              required: ['name'],
            },
          }),
        },
      });
    }
    if (view.action !== 'accept') return text(`No name: ${view.action}.`);
    return text(`Hello, ${String(view.content?.['name'])}!`);
  });
  server.registerTool('two_rounds', { description: 'Asks for a first, then a second answer.' }, (ctx) => {
    const answered = (key: string): boolean =>
      inputResponse(ctx.mcpReq.inputResponses, key).kind !== 'missing';
    if (answered('second')) return text('Both answered.');
    const key = answered('first') ? 'second' : 'first';
    const ask = inputRequired.elicit({
      message: `The ${key} question`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    return inputRequired({ inputRequests: { [key]: ask } });
  });
  server.registerTool('capabilities', { description: 'Echoes the declared client capabilities.' }, (ctx) =>
    text(JSON.stringify(declared(server, ctx))),
  );
  return server;
}

let host: SdkHttpHost;
let url: string;
const clients: RecourseClient[] = [];

beforeAll(async () => {
  host = await hostSdkServers(boardServer);
  url = host.url;
});
afterAll(() => host.close());
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/**
 * 2026-07-28 over HTTP; 2025 over an in-memory session, because the SDK's per-request 2025 HTTP leg cannot send
 * server→client requests.
 */
function targetFor(protocol: ProtocolMode): ServerTarget {
  if (protocol !== 'legacy') return { url };
  return {
    transport: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void boardServer().connect(serverSide);
      return clientSide;
    },
  };
}

function clientOf(protocol: ProtocolMode, options: Partial<RecourseClientOptions> = {}): RecourseClient {
  const client = createRecourseClient({
    target: targetFor(protocol),
    protocol,
    timeoutMs: 5_000,
    retry: { maxAttempts: 1 },
    ...options,
  });
  clients.push(client);
  return client;
}

const firstText = (result: CallToolResult): string =>
  result.content[0]?.type === 'text' ? result.content[0].text : '';

describe.each(['modern', 'legacy'] as const)('input requests on the %s era', (protocol) => {
  it('passes the server its elicitation to onElicitation and the answer back to the tool, in one attempt', async () => {
    const seen: unknown[] = [];
    const client = clientOf(protocol, {
      capabilities: { elicitation: { form: {} } },
      onElicitation: (request, ctx) => {
        seen.push({ message: request.message, aborted: ctx.signal.aborted });
        return Promise.resolve({ action: 'accept', content: { name: 'Ada' } });
      },
    });
    const success = await client.callTool('ask');
    expect(firstText(success.result)).toBe('Hello, Ada!');
    expect(seen).toEqual([{ message: 'What is your name?', aborted: false }]);
    expect(success.attempts.map((a) => a.outcome)).toEqual(['ok']);
  });

  it('reports a declined elicitation to the tool', async () => {
    const client = clientOf(protocol, {
      capabilities: { elicitation: { form: {} } },
      onElicitation: () => Promise.resolve({ action: 'decline' }),
    });
    expect(firstText((await client.callTool('ask')).result)).toBe('No name: decline.');
  });

  it('declares the capabilities it was given, and none without them', async () => {
    const bare = clientOf(protocol);
    const none = JSON.parse(firstText((await bare.callTool('capabilities')).result)) as object;
    expect(none).not.toHaveProperty('elicitation');
    const asking = clientOf(protocol, {
      capabilities: { elicitation: { form: { applyDefaults: true } } },
      onElicitation: () => Promise.resolve({ action: 'cancel' }),
    });
    const some = JSON.parse(firstText((await asking.callTool('capabilities')).result)) as object;
    expect(some).toMatchObject({ elicitation: { form: { applyDefaults: true } } });
  });

  it('keeps one deadline over every round: a handler slower than the deadline times the call out', async () => {
    const client = clientOf(protocol, {
      timeoutMs: 300,
      capabilities: { elicitation: { form: {} } },
      onElicitation: (_request, ctx) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({ action: 'accept', content: { name: 'late' } }), 3_000);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new Error('stopped asking'));
          });
        }),
    });
    const startedAt = Date.now();
    const outcome = await client.tryCallTool('ask');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('CALL_TIMEOUT');
    expect(outcome.error.attempts).toHaveLength(1);
    expect(Date.now() - startedAt).toBeLessThan(300 + 1_500);
  });

  it('cancels the call, not times it out, when the caller aborts while the handler is asking', async () => {
    const controller = new AbortController();
    const client = clientOf(protocol, {
      capabilities: { elicitation: { form: {} } },
      onElicitation: () => {
        controller.abort();
        return new Promise(() => undefined);
      },
    });
    const outcome = await client.tryCallTool('ask', {}, { signal: controller.signal });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('CALL_CANCELLED');
  });
});

describe('multi-round trips (2026-07-28)', () => {
  const slowly = (ms: number) => () =>
    new Promise<{ action: 'accept'; content: { ok: boolean } }>((resolve) =>
      setTimeout(() => resolve({ action: 'accept', content: { ok: true } }), ms),
    );

  it("answers every round in one attempt and passes the caller no progress of the SDK's own making", async () => {
    const asked: string[] = [];
    const progress: unknown[] = [];
    const client = clientOf('modern', {
      capabilities: { elicitation: { form: {} } },
      onElicitation: (request) => {
        asked.push(request.message);
        return Promise.resolve({ action: 'accept', content: { ok: true } });
      },
    });
    const success = await client.callTool('two_rounds', {}, { onProgress: (p) => progress.push(p) });
    expect(firstText(success.result)).toBe('Both answered.');
    expect(asked).toEqual(['The first question', 'The second question']);
    expect(success.attempts).toHaveLength(1);
    expect(progress).toEqual([]);
  });

  it('does not restart the deadline at each round: two slow rounds outlast one deadline', async () => {
    const client = clientOf('modern', {
      timeoutMs: 600,
      capabilities: { elicitation: { form: {} } },
      onElicitation: slowly(400),
    });
    const outcome = await client.tryCallTool('two_rounds');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('CALL_TIMEOUT');
    expect(outcome.error.attempts).toHaveLength(1);
  });
});

describe('an input handler that throws', () => {
  const throwing = {
    capabilities: { elicitation: { form: {} } },
    retry: { maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 10 },
    tools: { ask: { readOnly: true } },
  } as const;

  it('fails a 2026-07-28 call locally with CALL_INPUT_FAILED, once, naming the handler and its error', async () => {
    let asked = 0;
    const client = clientOf('modern', {
      ...throwing,
      onElicitation: () => {
        asked += 1;
        return Promise.reject(new Error('the form could not be shown'));
      },
    });
    const outcome = await client.tryCallTool('ask');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({ code: 'CALL_INPUT_FAILED', kind: 'local', retryable: false });
    expect(outcome.error.message).toMatch(
      /onElicitation handler threw while answering the server's elicitation\/create request \(the form could not be shown\)/,
    );
    expect(outcome.error.message).not.toMatch(/connection/i);
    expect(outcome.error.attempts.map((a) => a.outcome)).toEqual(['input_failed']);
    expect(asked).toBe(1);
  });

  it('lets the 2025 server hear of it, so the tool fails', async () => {
    const client = clientOf('legacy', {
      ...throwing,
      onElicitation: () => Promise.reject(new Error('the form could not be shown')),
    });
    const outcome = await client.tryCallTool('ask');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('CALL_TOOL_FAILED');
    expect(outcome.error.message).toMatch(/onElicitation handler threw/);
  });
});

describe('the connection', () => {
  it('installs the handlers again on the SDK client it re-pins to after -32022', async () => {
    const names: string[] = [];
    const connection = new Connection(targetFor('legacy'), {
      protocol: 'legacy',
      capabilities: { elicitation: { form: {} } },
      inputHandlers: {
        onElicitation: () => {
          const name = `name ${names.length + 1}`;
          names.push(name);
          return Promise.resolve({ action: 'accept', content: { name } });
        },
      },
    });
    try {
      const first = await connection.client();
      expect(firstText(await first.callTool({ name: 'ask' }))).toBe('Hello, name 1!');
      connection.repin('2025-06-18', first);
      const second = await connection.client();
      expect(second).not.toBe(first);
      expect(second.getNegotiatedProtocolVersion()).toBe('2025-06-18');
      expect(firstText(await second.callTool({ name: 'ask' }))).toBe('Hello, name 2!');
    } finally {
      await connection.close();
    }
  });
});

describe('input options', () => {
  it('refuses an elicitation capability without onElicitation at construction', () => {
    expect(() =>
      createRecourseClient({ target: { url: 'http://127.0.0.1:1/mcp' }, capabilities: { elicitation: {} } }),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_CLIENT_OPTIONS',
        message: expect.stringMatching(/capabilities\.elicitation.*no onElicitation.*Pass onElicitation/),
      }),
    );
  });

  it('refuses an onSampling handler without the sampling capability', () => {
    expect(() =>
      createRecourseClient({
        target: { url: 'http://127.0.0.1:1/mcp' },
        onSampling: () => Promise.reject(new Error('unused')),
      }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_CLIENT_OPTIONS', name: 'InvalidClientOptionsError' }));
  });
});
