/**
 * Turns a zod validation error into one `validation` failure the model can act on.
 *
 * @packageDocumentation
 */
import type { z } from 'zod';
import { ToolFailure } from './failure.ts';
import { describeIssue } from './zod-issue-text.ts';

/** The most issues spelled out in one failure; the rest are counted. */
export const MAX_LISTED_ISSUES = 5;

/** Options of {@link failureFromZodError}. */
export interface ZodFailureOptions {
  /** The tool whose arguments failed, named in the next step. */
  readonly tool: string;
  /** The tool's input schema, used to list the accepted keys when unknown keys were sent. */
  readonly schema?: z.ZodType;
}

/**
 * A `validation` failure with code `INVALID_ARGUMENTS` from a zod error: one sentence per issue, at most
 * {@link MAX_LISTED_ISSUES} (saying how many more were left out), each naming the argument, the value
 * received (truncated to about 60 characters, redacted) and what would be accepted. `field`, `received`
 * and `expected` describe the first issue. Not retryable; nothing changed.
 */
export function failureFromZodError(
  error: { readonly issues: readonly z.core.$ZodIssue[] },
  args: unknown,
  options: ZodFailureOptions,
): ToolFailure {
  const texts = error.issues.map((issue) => describeIssue(issue, args, options.schema));
  const listed = texts.slice(0, MAX_LISTED_ISSUES).map((t) => t.sentence);
  const omitted = texts.length - listed.length;
  if (omitted > 0)
    listed.push(`${omitted} more ${omitted === 1 ? 'problem was' : 'problems were'} not listed.`);
  const first = texts[0];
  const message = listed.length > 0 ? listed.join(' ') : `The arguments of ${options.tool} were refused.`;
  return new ToolFailure(
    {
      category: 'validation',
      code: 'INVALID_ARGUMENTS',
      message,
      ...(first !== undefined && first.field !== '' && { field: first.field }),
      ...(first?.received !== undefined && { received: first.received }),
      ...(first !== undefined && { expected: first.expected }),
      next: `Correct the arguments and call ${options.tool} again; its input schema lists every argument it takes.`,
      retryable: false,
      changed: false,
    },
    { cause: error },
  );
}
