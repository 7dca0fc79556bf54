/**
 * The client's repeat, breaker and bulkhead promises held against servers nobody here wrote: on the v1 SDK and
 * fastmcp, over stateless HTTP, stateful HTTP and stdio. A transient failure of a read-only tool is repeated
 * until the tool answers; the same failure of a write (no read-only or idempotent hint) is not repeated, unless
 * the caller declares the tool idempotent; the breaker counts a real refused connection but not a real validation,
 * not-found, conflict, permission or rate-limit failure; a tool that keeps failing opens its own breaker while
 * other tools go on working, a good trial call closes it, and an open breaker reroutes to the declared fallback; a full bulkhead refuses a call without sending it. The server's own
 * record (`interop_log`) says how often each tool really ran.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecourseClient } from '@recourse/client';
import type { PolicyEventName, RecourseClient } from '@recourse/client';
import { INTEROP_COMBINATIONS, startInteropServer } from './interop-servers.ts';
import type { InteropServer } from './interop-servers.ts';
import { failureOf, pause, resultText, serverRecord } from './interop-client.ts';

/** Short backoffs: the behaviour is what is tested, not the default delays. */
const QUICK_RETRY = { initialDelayMs: 20, maxDelayMs: 100 } as const;

describe.each(INTEROP_COMBINATIONS)(
  'repeats, breakers and bulkheads on a %s server over %s',
  (kind, transport) => {
    let server: InteropServer;
    /** Default policy with short backoffs. */
    let client: RecourseClient;
    /** The caller declares `flaky_write` idempotent. */
    let declaring: RecourseClient;
    /**
     * One attempt per call, a breaker opening after 3 faults, one call running and one queued, and `flaky_write`
     * rerouted to `flaky` while its breaker is open.
     */
    let guarded: RecourseClient;
    const key = (what: string): string => `${what}-${kind}-${transport}`;

    beforeAll(async () => {
      server = await startInteropServer(kind, transport);
      const name = `${kind}-${transport}`;
      client = createRecourseClient({ target: server.target, name, retry: QUICK_RETRY });
      declaring = createRecourseClient({
        target: server.target,
        name,
        retry: QUICK_RETRY,
        tools: { flaky_write: { idempotent: true } },
      });
      guarded = createRecourseClient({
        target: server.target,
        name,
        retry: { maxAttempts: 1 },
        breaker: { threshold: 3, halfOpenAfterMs: 1_000 },
        bulkhead: { maxConcurrent: 1, maxQueue: 1 },
        fallbacks: {
          flaky_write: {
            tool: 'flaky',
            mapArguments: (args) => ({ key: `fallback-${String(args.key)}`, failures: 0 }),
          },
        },
      });
    });

    afterAll(async () => {
      await Promise.all([client, declaring, guarded].map((c) => c.close()));
      await server.stop();
    });

    it('repeats a read-only tool that fails transiently until it answers', async () => {
      const retries: number[] = [];
      const off = client.on('retry', ({ attempt }) => retries.push(attempt));
      const { result, attempts } = await client.callTool('flaky', { key: key('safe'), failures: 2 });
      expect(resultText(result)).toBe('ok');
      expect(attempts.map((a) => a.outcome)).toEqual(['tool_failure', 'tool_failure', 'ok']);
      expect(attempts[0]?.category, 'the upstream-unavailable text reads as transient').toBe('transient');
      off();
      expect(retries).toEqual([1, 2]);
      expect((await serverRecord(client)).flaky[key('safe')], 'failures the server answered').toBe(2);
    });

    it('stops after maxAttempts and says the failure is worth retrying later', async () => {
      const gaveUp: string[] = [];
      const off = client.on('give_up', ({ reason }) => gaveUp.push(reason));
      const { error } = await failureOf(
        client.callTool(
          'flaky',
          { key: key('exhausted'), failures: 10 },
          { retry: { ...QUICK_RETRY, maxAttempts: 3 } },
        ),
      );
      off();
      expect(error.kind).toBe('tool');
      expect(error.code).toBe('CALL_TOOL_FAILED');
      expect(error.retryable).toBe(true);
      expect(error.message).toContain('Upstream service unavailable');
      expect(error.attempts).toHaveLength(3);
      expect(gaveUp).toEqual(['attempts_exhausted']);
      expect((await serverRecord(client)).flaky[key('exhausted')]).toBe(3);
    });

    it('does not repeat the same failure of a write, which declares neither read-only nor idempotent', async () => {
      const gaveUp: string[] = [];
      const off = client.on('give_up', ({ reason }) => gaveUp.push(reason));
      const { error } = await failureOf(client.callTool('flaky_write', { key: key('write'), failures: 1 }));
      off();
      expect(error.code).toBe('CALL_TOOL_FAILED');
      expect(error.kind === 'tool' && error.category).toBe('transient');
      expect(error.attempts).toHaveLength(1);
      expect(gaveUp).toEqual(['unsafe']);
      expect((await serverRecord(client)).flaky[key('write')], 'the write ran once').toBe(1);
    });

    it('repeats the write once the caller declares it idempotent', async () => {
      const { result, attempts } = await declaring.callTool('flaky_write', {
        key: key('declared'),
        failures: 1,
      });
      expect(resultText(result)).toBe('ok');
      expect(attempts.map((a) => a.outcome)).toEqual(['tool_failure', 'ok']);
    });

    it('opens the breaker of a failing tool while other tools keep working, and closes it after a good trial', async () => {
      const client = guarded;
      const events: PolicyEventName[] = [];
      for (const name of ['break', 'half_open', 'reset'] as const) client.on(name, () => events.push(name));
      const args = { key: key('breaker'), failures: 3 };
      for (let i = 0; i < 3; i++) {
        expect((await failureOf(client.callTool('flaky', args))).error.code).toBe('CALL_TOOL_FAILED');
      }
      expect(client.breakerState('flaky')).toBe('open');
      const refused = (await failureOf(client.callTool('flaky', args))).error;
      expect(refused.code).toBe('CALL_CIRCUIT_OPEN');
      expect(refused.kind === 'local' && refused.mayHaveReachedServer).toBe(false);
      expect(refused.message).toContain('Nothing was sent');
      const { result } = await client.callTool('slow', { ms: 0, tag: key('beside-open-breaker') });
      expect(resultText(result), 'another tool of the same server still works').toBe('done');
      expect((await serverRecord(client)).flaky[args.key], 'the refused call never reached the server').toBe(
        3,
      );

      await pause(1_200);
      expect(resultText((await client.callTool('flaky', args)).result)).toBe('ok');
      expect(client.breakerState('flaky')).toBe('closed');
      expect(events).toEqual(['break', 'half_open', 'reset']);
    });

    it("counts only the server's sick-server failures against the breaker, read from its real failure texts", async () => {
      // Refusals that say nothing about the server's health: validation, not found, conflict, permission, rate limit.
      for (const how of ['zod_enum', 'upstream_404', 'sqlite_unique', 'upstream_403', 'upstream_429']) {
        const { error } = await failureOf(guarded.callTool('fails_like', { how }));
        expect(error.kind, how).toBe('tool');
        expect(error.kind === 'tool' && error.category, how).not.toMatch(/^(transient|internal)$/);
      }
      expect(guarded.breakerState('fails_like')).toBe('closed');
      for (let i = 0; i < 3; i++) {
        const { error } = await failureOf(guarded.callTool('fails_like', { how: 'connect_refused' }));
        expect(error.kind === 'tool' && error.category).toBe('transient');
      }
      expect(guarded.breakerState('fails_like')).toBe('open');
    });

    it('sends the calls of a tool whose breaker is open to its declared fallback', async () => {
      const args = { key: key('rerouted'), failures: 10 };
      for (let i = 0; i < 3; i++) {
        expect((await failureOf(guarded.callTool('flaky_write', args))).error.code).toBe('CALL_TOOL_FAILED');
      }
      const rerouted = await guarded.callTool('flaky_write', args);
      expect(resultText(rerouted.result)).toBe('ok');
      expect(rerouted.tool).toBe('flaky');
      expect(rerouted.reroutedFrom).toEqual({
        server: guarded.name,
        tool: 'flaky_write',
        reason: 'circuit_open',
      });
      const record = await serverRecord(guarded);
      expect(record.flaky[args.key], 'the open breaker kept the call from the failing tool').toBe(3);
    });

    it('refuses a call beyond the bulkhead at once, without sending it', async () => {
      const client = guarded;
      await serverRecord(client);
      const running = client.callTool('slow', { ms: 800, tag: key('bulk-running') });
      const queued = client.callTool('slow', { ms: 0, tag: key('bulk-queued') });
      const { error } = await failureOf(client.callTool('slow', { ms: 0, tag: key('bulk-refused') }));
      expect(error.code).toBe('CALL_BULKHEAD_FULL');
      expect(error.kind === 'local' && error.mayHaveReachedServer).toBe(false);
      expect(resultText((await running).result)).toBe('done');
      expect(resultText((await queued).result)).toBe('done');
      const runs = (await serverRecord(client)).slow;
      const first = runs.find((r) => r.tag === key('bulk-running'));
      const second = runs.find((r) => r.tag === key('bulk-queued'));
      expect(
        runs.some((r) => r.tag === key('bulk-refused')),
        'the refused call reached the server',
      ).toBe(false);
      expect(second?.startedAt ?? 0, 'the queued call waited for the running one').toBeGreaterThanOrEqual(
        first?.finishedAt ?? Infinity,
      );
    });
  },
);
