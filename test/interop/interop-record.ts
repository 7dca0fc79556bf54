/**
 * What an interop server remembers about the tool work it did, shared by the v1 SDK and fastmcp servers:
 * when each slow (or progressing) call started, whether and when it was told to stop, how often each flaky key
 * failed, how often each dropping key ran, and how often each throttled key was refused and ran.
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
  /** Failures answered per flaky key. */
  readonly flaky: Record<string, number>;
  /** Runs of the `dropping` tool per key (each one did its work before the connection was destroyed). */
  readonly dropped: Record<string, number>;
  /** Per throttled key: requests refused with 429 before reaching the tool, and runs of the tool. */
  readonly throttled: Record<string, { refused: number; ran: number }>;
}

export const record: InteropRecord = { slow: [], flaky: {}, dropped: {}, throttled: {} };

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

/**
 * The `progressing` tool: like {@link runSlow}, and calls `report` every `everyMs` milliseconds with the
 * elapsed time and `ms` as the total, until the wait ends or `signal` fires.
 */
export async function runProgressing(
  tag: string,
  ms: number,
  everyMs: number,
  signal: AbortSignal,
  report: (progress: number, total: number) => Promise<void>,
): Promise<boolean> {
  const startedAt = Date.now();
  const ticker = setInterval(
    () => {
      report(Date.now() - startedAt, ms).catch(() => undefined);
    },
    Math.max(10, everyMs),
  );
  try {
    return await runSlow(tag, ms, signal);
  } finally {
    clearInterval(ticker);
  }
}

/** The `dropping` tool's work: counts a run of `key`; true while the connection is to be dropped after it. */
export function dropAfterRun(key: string, drops: number): boolean {
  const runs = (record.dropped[key] ?? 0) + 1;
  record.dropped[key] = runs;
  return runs <= drops;
}

/**
 * The rate limiter in front of the v1 HTTP server, in the way express-rate-limit and gateways answer: true when
 * this request for `key` is refused (the first `refusals` times), counting it; false when it may reach the tool.
 */
export function throttleRefuses(key: string, refusals: number): boolean {
  const entry = (record.throttled[key] ??= { refused: 0, ran: 0 });
  if (entry.refused >= refusals) return false;
  entry.refused += 1;
  return true;
}

/** The `throttled` tool: counts a run of `key`. */
export function throttledRan(key: string): void {
  (record.throttled[key] ??= { refused: 0, ran: 0 }).ran += 1;
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

/** What the `ask` tool asks for: a name. */
export const NAME_SCHEMA = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const } },
  required: ['name'],
};

/** The `ask` tool's answer: a greeting when the client accepted, else the client's action. */
export function greeting(answer: { action: string; content?: Record<string, unknown> | undefined }): string {
  const name = answer.content?.name;
  return answer.action === 'accept' && typeof name === 'string' ? `hello ${name}` : answer.action;
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
