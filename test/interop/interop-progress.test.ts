/**
 * Progress and the hard maximum against servers nobody here wrote: on the v1 SDK and fastmcp, over stateless
 * HTTP, stateful HTTP and stdio, a tool that reports progress every 100 ms outlives a deadline shorter than its
 * run (each progress pushes the deadline), reaches the caller's `onProgress`, and is still ended by the hard
 * maximum, which names itself and stops the handler on the server. A caller's abort while progress flows is
 * `cancelled`, never `timeout`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecourseClient } from '@recourse/client';
import type { CallProgress, RecourseClient } from '@recourse/client';
import { INTEROP_COMBINATIONS, isDeafToCancellation, startInteropServer } from './interop-servers.ts';
import type { InteropServer } from './interop-servers.ts';
import { expectStoppedSoonAfter, failureOf, resultText, serverRecord, stoppedRun } from './interop-client.ts';

/** Without progress, a 2 s run would time out three times over. */
const DEADLINE_MS = 600;

describe.each(INTEROP_COMBINATIONS)(
  'progress and the hard maximum on a %s server over %s',
  (kind, transport) => {
    const deaf = isDeafToCancellation(kind, transport);
    let server: InteropServer;
    let client: RecourseClient;
    const tag = (what: string): string => `${what}-${kind}-${transport}`;

    beforeAll(async () => {
      server = await startInteropServer(kind, transport);
      client = createRecourseClient({
        target: server.target,
        name: `${kind}-${transport}`,
        timeoutMs: DEADLINE_MS,
      });
      await serverRecord(client);
    });

    afterAll(async () => {
      await client.close();
      await server.stop();
    });

    it('keeps a call alive past its deadline while the tool reports progress, and passes the progress on', async () => {
      const seen: CallProgress[] = [];
      const { result, attempts } = await client.callTool(
        'progressing',
        { ms: 2_000, everyMs: 100, tag: tag('alive') },
        { maxTimeoutMs: 20_000, onProgress: (p) => seen.push(p) },
      );
      expect(resultText(result)).toBe('done');
      expect(attempts).toHaveLength(1);
      expect(seen.length, 'progress notifications seen').toBeGreaterThanOrEqual(5);
      expect(seen.every((p) => p.total === 2_000)).toBe(true);
      expect(seen.map((p) => p.progress)).toEqual([...seen.map((p) => p.progress)].sort((a, b) => a - b));
    });

    it(`ends a call that keeps reporting progress at its hard maximum${deaf ? '' : ' and stops it on the server'}`, async () => {
      let progressed = 0;
      const failure = await failureOf(
        client.callTool(
          'progressing',
          { ms: 5_000, everyMs: 100, tag: tag('capped') },
          { maxTimeoutMs: 1_500, onProgress: () => progressed++ },
        ),
      );
      expect(failure.error.code).toBe('CALL_TIMEOUT');
      expect(failure.error.message).toContain('hard maximum of 1500 ms');
      expect(progressed, 'progress arrived before the hard maximum').toBeGreaterThan(0);
      expectStoppedSoonAfter(await stoppedRun(client, tag('capped')), failure.at, deaf);
    });

    it('ends as cancelled, not timeout, when the caller aborts while progress flows', async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), DEADLINE_MS + 400);
      const failure = await failureOf(
        client.callTool(
          'progressing',
          { ms: 5_000, everyMs: 100, tag: tag('aborted') },
          { maxTimeoutMs: 20_000, signal: controller.signal },
        ),
      );
      clearTimeout(timer);
      expect(failure.error.code).toBe('CALL_CANCELLED');
      expect(failure.error.message).toContain('cancelled by the caller');
      expectStoppedSoonAfter(await stoppedRun(client, tag('aborted')), failure.at, deaf);
    });
  },
);
