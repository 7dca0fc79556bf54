/**
 * A server's input request answered by the client's handler against servers nobody here wrote: a v1 SDK tool
 * (`server.elicitInput`) and a fastmcp tool (`context.elicit`), over the transports that keep a session (stateful
 * HTTP and stdio; a 2025-era stateless server cannot send a request to the client). The handler's answer reaches
 * the tool within the same call and the same attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecourseClient } from '@recourse/client';
import type { RecourseClient } from '@recourse/client';
import { startInteropServer } from './interop-servers.ts';
import type { InteropServer, InteropServerKind, InteropTransport } from './interop-servers.ts';
import { resultText } from './interop-client.ts';

const SESSION_SERVERS: readonly (readonly [InteropServerKind, InteropTransport])[] = [
  ['v1', 'stateful'],
  ['v1', 'stdio'],
  ['fastmcp', 'stateful'],
  ['fastmcp', 'stdio'],
];

describe.each(SESSION_SERVERS)('input requests of a %s server over %s', (kind, transport) => {
  let server: InteropServer;
  let client: RecourseClient;
  const asked: string[] = [];

  beforeAll(async () => {
    server = await startInteropServer(kind, transport);
    client = createRecourseClient({
      target: server.target,
      name: `${kind}-${transport}`,
      timeoutMs: 20_000,
      capabilities: { elicitation: { form: {} } },
      onElicitation: (request) => {
        asked.push(request.message);
        return Promise.resolve(
          request.message.includes('refuse')
            ? { action: 'decline' }
            : { action: 'accept', content: { name: 'Ada' } },
        );
      },
    });
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it("passes the handler's answer to the tool within one call and one attempt", async () => {
    const { result, attempts } = await client.callTool('ask', { question: 'Who are you?' });
    expect(resultText(result)).toBe('hello Ada');
    expect(attempts.map((a) => a.outcome)).toEqual(['ok']);
    expect(asked).toContain('Who are you?');
  });

  it("passes the handler's refusal to the tool", async () => {
    const { result } = await client.callTool('ask', { question: 'Please refuse this one.' });
    expect(resultText(result)).toBe('decline');
  });
});
