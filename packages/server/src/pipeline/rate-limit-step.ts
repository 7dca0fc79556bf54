/**
 * Pipeline step 3: the caller's tool-call budget.
 *
 * @packageDocumentation
 */
import { isToolFailure, rateLimited, ToolFailure, transientFailure } from '@recourse/core';
import type { Principal } from '../contract.ts';
import type { RateLimits } from '../rate-limits.ts';
import type { ResolvedGuidance } from './refusal-guidance.ts';

/** "a minute", "per 10 s" … for a window length, to follow "120 tool calls". */
export function describeWindow(windowMs: number): string {
  if (windowMs === 60_000) return 'a minute';
  if (windowMs === 3_600_000) return 'an hour';
  if (windowMs % 1000 === 0) return `per ${String(windowMs / 1000)} s`;
  return `per ${String(windowMs)} ms`;
}

/**
 * Takes the tool's cost from the caller's budget; refuses when the budget is spent, saying the limit and how long
 * to wait. Failures: `rate_limit` / `RATE_LIMITED` (retryable, `retryAfterMs` from the limiter),
 * `rate_limit` / `RATE_LIMIT_COST_TOO_HIGH` (the tool costs more than the whole budget; not retryable),
 * `transient` / `RATE_LIMIT_UNAVAILABLE` when the limiter store fails (a store's own failure, such as a busy
 * database, is passed through).
 */
export async function checkRateLimit(
  principal: Principal,
  tool: string,
  cost: number,
  limits: RateLimits,
  guidance: ResolvedGuidance,
): Promise<void> {
  let verdict;
  try {
    verdict = await limits.consume(principal, cost);
  } catch (error) {
    // A store that explains its own state (a busy database, a database file gone) is passed through as it said it.
    if (isToolFailure(error)) throw error;
    throw transientFailure({
      code: 'RATE_LIMIT_UNAVAILABLE',
      message: `The call to ${tool} was not run because the rate-limit store could not be reached.`,
      next: 'Try again in a moment.',
      retryAfterMs: 1000,
      cause: error,
    });
  }
  if (verdict.allowed) return;
  const window = describeWindow(verdict.windowMs);
  const role = principal.role === undefined ? '' : ` with role ${principal.role}`;
  const who = `${guidance.caller(principal)}${role}`;
  const costNote = cost === 1 ? '' : ` (which counts as ${String(cost)} calls)`;
  if (verdict.costExceedsLimit) {
    throw new ToolFailure({
      category: 'rate_limit',
      code: 'RATE_LIMIT_COST_TOO_HIGH',
      message: `${who} may make ${String(verdict.limit)} tool calls ${window}, but one call to ${tool} counts as ${String(cost)}.`,
      next: guidance.limit,
      retryable: false,
      changed: false,
    });
  }
  throw rateLimited({
    limit: verdict.limit,
    windowMs: verdict.windowMs,
    message: `${who} may make ${String(verdict.limit)} tool calls ${window} and has reached that limit, so this call to ${tool}${costNote} was not run.`,
    next: 'Spread later calls out to stay under the limit.',
    retryAfterMs: verdict.retryAfterMs,
  });
}
