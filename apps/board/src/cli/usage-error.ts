/**
 * Wrong command-line usage: a one-line message on stderr and exit code 2.
 *
 * @packageDocumentation
 */

/** Exit code for wrong usage (unknown command, flag or value). */
export const USAGE_EXIT_CODE = 2;

/** Thrown for wrong usage; `code` is `USAGE`. The message is one line naming the problem and `--help`. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'USAGE';
}
