/**
 * What a CLI command may touch: output lines, the environment, and its shutdown signal.
 *
 * @packageDocumentation
 */

/** The outside world of a command, injected so that commands can be tested in-process. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); long-running commands await it. */
  readonly stopRequested: Promise<string>;
  readonly cwd: string;
  /** Reads all of standard input (for secrets that must not be arguments); absent when there is none. */
  readonly readStdin?: () => Promise<string>;
}
