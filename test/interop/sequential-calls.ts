/**
 * Many sequential calls of @recourse/client against an interop server, under one long-lived caller signal (the
 * way an agent passes its run's signal to every call): counts every process warning emitted meanwhile (by name),
 * the abort listeners left on the caller's signal, and the heap after a full GC at the start and at each quarter.
 * Used by `npm run soak:client` (10,000 calls) and by a bounded test in `npm test`.
 */
import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRecourseClient } from '@recourse/client';
import { startInteropServer } from './interop-servers.ts';
import type { InteropServerKind, InteropTransport } from './interop-servers.ts';

/** What a run measured. */
export interface SequentialCallsReport {
  readonly calls: number;
  readonly seconds: number;
  /** Process warnings emitted during the calls, by name (e.g. `MaxListenersExceededWarning`). */
  readonly warnings: Readonly<Record<string, number>>;
  /** Abort listeners still on the caller's signal after the last call. */
  readonly listenersLeft: number;
  /** Heap used after a full GC, in MB: after one warm-up call, then after each quarter of the calls. */
  readonly heapMb: readonly number[];
}

/** A full garbage collection: `global.gc` when Node runs with `--expose-gc`, else one exposed for this process. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Makes `calls` sequential calls of the read-only `flaky` tool (answering at once) on a `kind` server over
 * `transport`, each with the same caller signal, and reports what they left behind. Bounded by `calls` and by
 * `maxSeconds` (rejects when the calls take longer).
 */
export async function runSequentialCalls(
  kind: InteropServerKind,
  transport: InteropTransport,
  calls: number,
  maxSeconds: number,
): Promise<SequentialCallsReport> {
  const gc = collector();
  const heapMb = (): number => {
    gc();
    return Math.round((process.memoryUsage().heapUsed / 1e6) * 10) / 10;
  };
  const warnings: Record<string, number> = {};
  const onWarning = (warning: Error): void => {
    warnings[warning.name] = (warnings[warning.name] ?? 0) + 1;
  };
  const server = await startInteropServer(kind, transport);
  const client = createRecourseClient({ target: server.target, name: `${kind}-${transport}` });
  const run = new AbortController();
  const args = { key: 'sequential', failures: 0 };
  process.on('warning', onWarning);
  try {
    await client.callTool('flaky', args, { timeoutMs: 20_000 });
    const heaps = [heapMb()];
    const started = performance.now();
    const until = Date.now() + maxSeconds * 1000;
    const quarter = Math.max(1, Math.floor(calls / 4));
    for (let i = 1; i <= calls; i++) {
      await client.callTool('flaky', args, { signal: run.signal });
      if (i % quarter === 0) heaps.push(heapMb());
      if (Date.now() > until)
        throw new Error(`${String(i)} of ${String(calls)} calls took over ${String(maxSeconds)} s`);
    }
    return {
      calls,
      seconds: (performance.now() - started) / 1000,
      warnings,
      listenersLeft: getEventListeners(run.signal, 'abort').length,
      heapMb: heaps,
    };
  } finally {
    process.off('warning', onWarning);
    await client.close();
    await server.stop();
  }
}

/** One line for a person: the run's figures. */
export function describeRun(kind: string, transport: string, report: SequentialCallsReport): string {
  const warned = Object.entries(report.warnings).map(([name, count]) => `${String(count)} ${name}`);
  return (
    `${String(report.calls)} sequential calls over ${kind} ${transport} in ${report.seconds.toFixed(1)} s: ` +
    `${warned.length === 0 ? 'no process warning' : warned.join(', ')}, ` +
    `${String(report.listenersLeft)} listeners left on the caller signal, ` +
    `heap after GC (MB) ${report.heapMb.join(' → ')}`
  );
}
