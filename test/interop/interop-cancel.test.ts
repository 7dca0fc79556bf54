/**
 * Cancellation reaches servers nobody here wrote: on the v1 SDK and fastmcp, over stateless HTTP, stateful
 * HTTP and stdio, a 5 s tool under a 500 ms deadline and a 5 s tool the caller aborts at 300 ms are both
 * stopped on the server (its handler's signal fires) soon after the client gives up, and never run to the end.
 *
 * fastmcp's stateless mode is the one server that cannot hear it: its HTTP layer (mcp-proxy) builds a server per
 * request and neither closes it when the client closes the request's stream nor routes `notifications/cancelled`
 * to it, so no client can stop a running handler there. That case pins the server's behaviour instead, so this
 * test fails (and the README's limit can go) once fastmcp starts to listen. What does stop a handler there is
 * the server's own limit: a fastmcp tool's `timeoutMs` fires its `context.signal` on every transport.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecourseClient } from '@recourse/client';
import type { RecourseClient } from '@recourse/client';
import { INTEROP_COMBINATIONS, isDeafToCancellation, startInteropServer } from './interop-servers.ts';
import type { InteropServer } from './interop-servers.ts';
import {
  STOPPED_WITHIN_MS,
  expectStoppedSoonAfter,
  failureOf,
  serverRecord,
  stoppedRun,
} from './interop-client.ts';

describe.each(INTEROP_COMBINATIONS)('cancellation on a %s server over %s', (kind, transport) => {
  const deaf = isDeafToCancellation(kind, transport);
  let server: InteropServer;
  let client: RecourseClient;

  beforeAll(async () => {
    server = await startInteropServer(kind, transport);
    client = createRecourseClient({ target: server.target, name: `${kind}-${transport}` });
    await client.callTool('interop_log');
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it(`${deaf ? 'cannot stop' : 'stops'} a 5 s tool on the server once its 500 ms deadline passes`, async () => {
    const tag = `deadline-${kind}-${transport}`;
    const failure = await failureOf(client.callTool('slow', { ms: 5_000, tag }, { timeoutMs: 500 }));
    expect(failure.error.code).toBe('CALL_TIMEOUT');
    expectStoppedSoonAfter(await stoppedRun(client, tag), failure.at, deaf);
  });

  it(`${deaf ? 'cannot stop' : 'stops'} a 5 s tool on the server once the caller aborts at 300 ms`, async () => {
    const tag = `abort-${kind}-${transport}`;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 300);
    const failure = await failureOf(
      client.callTool('slow', { ms: 5_000, tag }, { signal: controller.signal, timeoutMs: 10_000 }),
    );
    clearTimeout(timer);
    expect(failure.error.code).toBe('CALL_CANCELLED');
    expectStoppedSoonAfter(await stoppedRun(client, tag), failure.at, deaf);
  });

  if (kind === 'fastmcp')
    it("stops a tool on the server at fastmcp's own timeoutMs, and the call fails as a transient tool failure", async () => {
      const tag = `capped-${kind}-${transport}`;
      const failure = await failureOf(
        client.callTool('slow_capped', { ms: 5_000, tag }, { retry: { maxAttempts: 1 } }),
      );
      expect(failure.error.kind === 'tool' && failure.error.category).toBe('transient');
      expect(failure.error.message).toContain('timed out after 100ms');
      const run = await stoppedRun(client, tag);
      expect(run?.finishedAt, 'the handler ran to the end').toBeUndefined();
      expect((run?.abortedAt ?? Infinity) - (run?.startedAt ?? 0)).toBeLessThan(STOPPED_WITHIN_MS);
    });

  if (transport === 'stdio')
    it.each([
      ['an abort', 'CALL_CANCELLED', () => ({ signal: AbortSignal.timeout(200) })],
      ['the deadline', 'CALL_TIMEOUT', () => ({ timeoutMs: 200 })],
    ] as const)(
      'ends a call cut short by %s while the server is still starting as never sent',
      async (_what, code, options) => {
        const starting = createRecourseClient({
          target: server.target,
          name: `${kind}-${transport}-starting`,
        });
        try {
          const { error } = await failureOf(
            starting.callTool('slow', { ms: 0, tag: `starting-${code}` }, options()),
          );
          expect(error.code).toBe(code);
          expect(error.kind === 'local' && error.mayHaveReachedServer).toBe(false);
          expect(error.message).toMatch(/(before it was sent|not sent)/);
          expect(error.message).toMatch(/nothing was (changed|sent)/i);
          const record = await serverRecord(starting);
          expect(
            record.slow.some((r) => r.tag === `starting-${code}`),
            'the call reached the server',
          ).toBe(false);
        } finally {
          await starting.close();
        }
      },
    );
});
