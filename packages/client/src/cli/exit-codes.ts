/**
 * Exit codes of `recourse call`, one per kind of outcome.
 *
 * @packageDocumentation
 */
import type { RecourseCallError } from '../errors.ts';

/** Exit code per outcome: 0 success, 2 usage, 3 tool failure, 4 protocol error, 5–9 local failures, 10 sign-in. */
export const EXIT_CODES = {
  ok: 0,
  failed: 1,
  usage: 2,
  tool: 3,
  protocol: 4,
  timeout: 5,
  cancelled: 6,
  transport: 7,
  ambiguous: 8,
  refused_locally: 9,
  sign_in: 10,
} as const;

/** The exit code for a call failure. */
export function exitCodeOf(error: RecourseCallError): number {
  if (error.kind === 'tool') return EXIT_CODES.tool;
  if (error.kind === 'protocol') return EXIT_CODES.protocol;
  switch (error.reason) {
    case 'timeout':
      return EXIT_CODES.timeout;
    case 'cancelled':
      return EXIT_CODES.cancelled;
    case 'ambiguous':
      return EXIT_CODES.ambiguous;
    case 'transport':
      return EXIT_CODES.transport;
    case 'sign_in_required':
      return EXIT_CODES.sign_in;
    default:
      return EXIT_CODES.refused_locally;
  }
}
