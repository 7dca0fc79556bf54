/**
 * What an interop server remembers about the tool work it did, shared by the v1 SDK and fastmcp servers:
 * when each slow call started, whether and when it was told to stop, and how often each flaky key failed.
 * Tests read it back through the `interop_log` tool (one record per server process, so it also spans the
 * per-request server instances of stateless HTTP).
 */

/** One run of the `slow` tool. */
export interface SlowRun {
  readonly tag: string;
  readonly startedAt: number;
  /** When the handler's abort signal fired, if it did. */
  abortedAt?: number;
  /** When the handler finished its whole wait, if it did. */
  finishedAt?: number;
}

/** The record of one server process. */
export interface InteropRecord {
  readonly slow: SlowRun[];
  readonly flaky: Record<string, number>;
}

export const record: InteropRecord = { slow: [], flaky: {} };

/**
 * The `slow` tool: waits `ms` milliseconds unless `signal` fires first, recording either. Resolves with
 * whether the whole wait passed.
 */
export function runSlow(tag: string, ms: number, signal: AbortSignal): Promise<boolean> {
  const run: SlowRun = { tag, startedAt: Date.now() };
  record.slow.push(run);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      run.finishedAt = Date.now();
      resolve(true);
    }, ms);
    function onAbort(): void {
      clearTimeout(timer);
      run.abortedAt = Date.now();
      resolve(false);
    }
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The `flaky` tool: true while `key` has failed fewer than `failures` times (and counts this failure). */
export function flakyShouldFail(key: string, failures: number): boolean {
  const seen = record.flaky[key] ?? 0;
  if (seen >= failures) return false;
  record.flaky[key] = seen + 1;
  return true;
}

/** The text of `interop_log`: the record as JSON. */
export function recordText(): string {
  return JSON.stringify(record);
}

/** The failure text the `flaky` tool sends, in the words a typical upstream wrapper uses. */
export const FLAKY_TEXT = 'Upstream service unavailable, please try again later.';

/** Reads the transport to serve from argv: `stateless`, `stateful` or `stdio`. */
export function transportArg(): 'stateless' | 'stateful' | 'stdio' {
  const mode = process.argv[2];
  if (mode === 'stateless' || mode === 'stateful' || mode === 'stdio') return mode;
  process.stderr.write('usage: <server>.ts stateless|stateful|stdio\n');
  process.exit(2);
}
