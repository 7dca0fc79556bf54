/**
 * Test support: an `@modelcontextprotocol/ext-tasks` requester session (2026-07-28) on a Streamable HTTP endpoint
 * with a bearer token: an SDK client pinned to 2026-07-28 plus the raw dispatch the extension needs for task
 * traffic, with the standard request framing that declares the tasks extension.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import { createHttpRawDispatch } from '../../packages/client/src/tasks/http-raw-dispatch.ts';

/** The endpoint identity every session of these tests uses, so references resume across processes. */
export function endpointIdOf(url: string): string {
  return `recourse-test:${url}`;
}

/** An open session and its SDK client; `close()` closes both. */
export interface OpenTaskSession {
  readonly session: TaskEnabledSession;
  readonly client: Client;
  close(): Promise<void>;
}

/**
 * Connects a 2026-07-28 client to `url` with `token` and wraps it in a tasks session. Instances of one deployment
 * pass the same `endpointId`, so that a reference taken on one resumes on another.
 */
export async function openTaskSession(
  url: string,
  token: string,
  endpointId = endpointIdOf(url),
): Promise<OpenTaskSession> {
  const client = new Client(
    { name: 'tasks-session-test', version: '0.0.1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const session = createTaskSessionFromClient(client, {
    endpointId,
    rawDispatch: createHttpRawDispatch({ url, token }),
    v2RequestFraming: {
      protocolVersion: '2026-07-28',
      clientInfo: { name: 'tasks-session-test', version: '0.0.1' },
      clientCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    },
  });
  return {
    session,
    client,
    async close() {
      await session.close().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}
