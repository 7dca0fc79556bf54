/**
 * One measured batch: calls through a {@link Caller} for a fixed time, one at a time or with a fixed number in
 * flight, with throughput, latency percentiles and the server's CPU time per call. Batches are bounded by time
 * rather than count so that a slow configuration on a loaded machine cannot stretch a run without end.
 *
 * @packageDocumentation
 */
import { performance } from 'node:perf_hooks';
import type { Caller } from './callers.ts';
import { preciseCpuMicros } from './proc-usage.ts';
import { quantile } from './stats.ts';

/** The figures of one batch. */
export interface Sample {
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Server CPU per call (all its threads), in microseconds. */
  readonly serverCpuUs: number;
  /**
   * CPU (user + system) of the benchmark process per call, in microseconds: the client's own work, since every
   * server is a process of its own and one configuration runs at a time.
   */
  readonly clientCpuUs: number;
  readonly calls: number;
}

/**
 * Runs calls with `inFlight` concurrent workers (1: sequential) for `durationMs`, and at least `inFlight * 4`
 * calls, and measures them; the server's CPU time comes from the scheduler's nanosecond counters
 * ({@link preciseCpuMicros}).
 */
export async function measure(caller: Caller, durationMs: number, inFlight: number): Promise<Sample> {
  const latencies: number[] = [];
  const minCalls = inFlight * 4;
  const cpuBefore = preciseCpuMicros(caller.pid);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + durationMs;
  let startedCalls = 0;
  const worker = async (): Promise<void> => {
    while (startedCalls < minCalls || performance.now() < deadline) {
      startedCalls += 1;
      const callStarted = performance.now();
      await caller.call();
      latencies.push(performance.now() - callStarted);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsedMs = performance.now() - started;
  const used = preciseCpuMicros(caller.pid) - cpuBefore;
  const client = process.cpuUsage(clientBefore);
  return {
    callsPerSecond: (latencies.length * 1000) / elapsedMs,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    serverCpuUs: used / latencies.length,
    clientCpuUs: (client.user + client.system) / latencies.length,
    calls: latencies.length,
  };
}

/** Makes calls without measuring (JIT warm-up, caches) for `durationMs`, and at least 20. */
export async function warmUp(caller: Caller, durationMs: number): Promise<void> {
  const deadline = performance.now() + durationMs;
  for (let i = 0; i < 20 || performance.now() < deadline; i += 1) await caller.call();
}
