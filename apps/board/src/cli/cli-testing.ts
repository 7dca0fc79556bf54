/**
 * An in-memory {@link CliIo} for tests of the CLI: captured output lines and a stop trigger.
 *
 * @packageDocumentation
 */
import type { CliIo } from './io.ts';

/** A captured CLI io; `stop(signal)` resolves `stopRequested`. */
export interface CapturedIo extends CliIo {
  readonly outLines: string[];
  readonly errLines: string[];
  stop(signal?: string): void;
}

/** Creates a {@link CapturedIo} with `env` and `cwd`. */
export function captureIo(env: Record<string, string | undefined> = {}, cwd = process.cwd()): CapturedIo {
  const outLines: string[] = [];
  const errLines: string[] = [];
  let stop!: (signal: string) => void;
  const stopRequested = new Promise<string>((resolve) => {
    stop = resolve;
  });
  return {
    outLines,
    errLines,
    out: (line) => outLines.push(...line.split('\n')),
    err: (line) => errLines.push(...line.split('\n')),
    env,
    cwd,
    stopRequested,
    stop: (signal = 'SIGTERM') => stop(signal),
  };
}
