/**
 * What only HTTP can do to a call, against the v1 SDK over stateless and stateful HTTP (fastmcp owns its HTTP
 * server, so neither a tool nor a limiter in front of it can reach the connection): a connection destroyed after
 * the tool did its work, and a rate limiter in front of the server answering 429 with `Retry-After`. The server's
 * record (`interop_log`) says how often each tool really ran and how often the limiter refused it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecourseClient } from '@recourse/client';
import type { GiveUpReason, RecourseClient } from '@recourse/client';
import { startInteropServer } from './interop-servers.ts';
import type { InteropServer, InteropServerKind, InteropTransport } from './interop-servers.ts';
import { failureOf, resultText, serverRecord } from './interop-client.ts';

const QUICK_RETRY = { initialDelayMs: 20, maxDelayMs: 100 } as const;
/** The limiter's `Retry-After: 1`. */
const RETRY_AFTER_MS = 1_000;

const HTTP_SERVERS: readonly (readonly [InteropServerKind, InteropTransport])[] = [
  ['v1', 'stateless'],
  ['v1', 'stateful'],
];

describe.each(HTTP_SERVERS)(
  'dropped connections and rate limits on a %s server over %s HTTP',
  (kind, transport) => {
    let server: InteropServer;
    let client: RecourseClient;
    /** The caller declares `dropping` idempotent. */
    let declaring: RecourseClient;
    const key = (what: string): string => `${what}-${kind}-${transport}`;

    beforeAll(async () => {
      server = await startInteropServer(kind, transport);
      const name = `${kind}-${transport}`;
      client = createRecourseClient({ target: server.target, name, retry: QUICK_RETRY });
      declaring = createRecourseClient({
        target: server.target,
        name,
        retry: QUICK_RETRY,
        tools: { dropping: { idempotent: true } },
      });
    });

    afterAll(async () => {
      await Promise.all([client.close(), declaring.close()]);
      await server.stop();
    });

    it('reports a write whose connection dropped after its work as ambiguous, and runs it exactly once', async () => {
      const { error } = await failureOf(client.callTool('dropping', { key: key('write'), drops: 5 }));
      expect(error.code).toBe('CALL_AMBIGUOUS');
      expect(error.kind === 'local' && error.mayHaveReachedServer).toBe(true);
      expect(error.retryable).toBe(false);
      expect(error.message).toContain('may or may not have taken effect');
      expect(error.message).toContain('Check the server');
      expect(error.attempts.map((a) => [a.outcome, a.mayHaveReachedServer])).toEqual([['transport', true]]);
      expect((await serverRecord(client)).dropped[key('write')], 'runs on the server').toBe(1);
    });

    it('repeats the dropped call when the caller declares the tool idempotent', async () => {
      const { result, attempts } = await declaring.callTool('dropping', { key: key('declared'), drops: 1 });
      expect(resultText(result)).toBe('ok');
      expect(attempts.map((a) => a.outcome)).toEqual(['transport', 'ok']);
      expect((await serverRecord(client)).dropped[key('declared')], 'runs on the server').toBe(2);
    });

    it("waits for the limiter's Retry-After before repeating a 429, even for a write", async () => {
      const { result, attempts } = await client.callTool('throttled', { key: key('limited'), refusals: 1 });
      expect(resultText(result)).toBe('ok');
      expect(attempts.map((a) => [a.outcome, a.mayHaveReachedServer])).toEqual([
        ['transport', false],
        ['ok', undefined],
      ]);
      expect(attempts[1]?.waitBeforeMs).toBeGreaterThanOrEqual(RETRY_AFTER_MS);
      expect(
        (attempts[1]?.startedAt ?? 0) - (attempts[0]?.startedAt ?? 0) - (attempts[0]?.durationMs ?? 0),
        'the second attempt started after the wait',
      ).toBeGreaterThanOrEqual(RETRY_AFTER_MS - 5);
      expect((await serverRecord(client)).throttled[key('limited')]).toEqual({ refused: 1, ran: 1 });
    });

    it('ends as cancelled, with nothing changed, when the caller aborts during the Retry-After wait', async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 300);
      const { error } = await failureOf(
        client.callTool('throttled', { key: key('aborted'), refusals: 5 }, { signal: controller.signal }),
      );
      clearTimeout(timer);
      expect(error.code).toBe('CALL_CANCELLED');
      expect(error.kind === 'local' && error.mayHaveReachedServer).toBe(false);
      expect(error.message).toContain('nothing was changed');
      expect(error.attempts).toHaveLength(1);
      expect((await serverRecord(client)).throttled[key('aborted')]).toEqual({ refused: 1, ran: 0 });
    });

    it('does not start a wait that would end past the deadline, and says when retrying helps', async () => {
      const gaveUp: GiveUpReason[] = [];
      const off = client.on('give_up', ({ reason }) => gaveUp.push(reason));
      const { error } = await failureOf(
        client.callTool('throttled', { key: key('deadline'), refusals: 5 }, { timeoutMs: 600 }),
      );
      off();
      expect(error.code).toBe('CALL_TRANSPORT');
      expect(error.kind === 'local' && [error.httpStatus, error.retryAfterMs]).toEqual([429, RETRY_AFTER_MS]);
      expect(error.retryable).toBe(true);
      expect(error.message).toContain(`Retrying after ${String(RETRY_AFTER_MS)} ms may help`);
      expect(gaveUp).toEqual(['deadline']);
      expect((await serverRecord(client)).throttled[key('deadline')]).toEqual({ refused: 1, ran: 0 });
    });
  },
);
