/**
 * Thousands of sequential calls of @recourse/client against foreign servers, each under the same long-lived
 * caller signal, emit no process warning (no `MaxListenersExceededWarning` from listeners piling up on that
 * signal), leave no listener on it, and leave the heap flat. The 10,000-call run is `npm run soak:client`.
 */
import { describe, expect, it } from 'vitest';
import { describeRun, runSequentialCalls } from './sequential-calls.ts';
import type { InteropServerKind, InteropTransport } from './interop-servers.ts';

/** Growth of the heap after GC allowed over a whole run: far below what one retained object per call would add. */
const HEAP_GROWTH_MB = 8;

const RUNS: readonly (readonly [InteropServerKind, InteropTransport, number])[] = [
  ['v1', 'stdio', 3_000],
  ['v1', 'stateless', 2_000],
];

describe('sequential calls against foreign servers', () => {
  it.each(RUNS)(
    'on a %s server over %s, %i calls emit no warning and leave the heap flat',
    async (kind, transport, calls) => {
      const report = await runSequentialCalls(kind, transport, calls, 150);
      console.log(describeRun(kind, transport, report));
      expect(report.warnings).toEqual({});
      expect(report.listenersLeft).toBe(0);
      const [first = 0] = report.heapMb;
      const last = report.heapMb.at(-1) ?? Infinity;
      expect(last - first, `heap after GC grew from ${String(first)} MB to ${String(last)} MB`).toBeLessThan(
        HEAP_GROWTH_MB,
      );
    },
    180_000,
  );
});
