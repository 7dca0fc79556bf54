/**
 * The failures of calls this client refused before sending anything: cancelled by the caller, a full bulkhead,
 * an open or half-open breaker.
 *
 * @packageDocumentation
 */
import { LocalCallError } from './errors.ts';

/** The caller aborted before the request was sent: `cancelled`, with nothing sent and no attempt made. */
export function cancelledBeforeSending(server: string, tool: string): LocalCallError {
  return new LocalCallError({
    server,
    tool,
    reason: 'cancelled',
    message: `The call of ${tool} was cancelled by the caller before it was sent. Nothing was sent.`,
  });
}

/** The server's bulkhead had no free slot and no room in its queue. */
export function bulkheadFull(server: string, tool: string): LocalCallError {
  return new LocalCallError({
    server,
    tool,
    reason: 'bulkhead_full',
    message: `The call of ${tool} was refused locally: ${server} already has the maximum number of calls running and queued. Nothing was sent. Retry when fewer calls are in flight.`,
  });
}

/**
 * The tool's breaker refused the call: `open` (after repeated faults, until `halfOpenAfterMs` have passed), or
 * `testing` (half-open, with its trial call running).
 */
export function circuitOpen(
  server: string,
  tool: string,
  admission: 'open' | 'testing',
  halfOpenAfterMs: number,
): LocalCallError {
  const state =
    admission === 'open'
      ? `its circuit breaker is open after repeated failures of ${tool} on ${server}`
      : `its circuit breaker is half-open after repeated failures of ${tool} on ${server}, and a trial call is running to see whether ${tool} recovered`;
  const next =
    admission === 'open'
      ? `A trial call is let through ${halfOpenAfterMs} ms after the breaker opened; retry after that, or use another tool.`
      : 'Retry when the trial call has ended (the breaker closes if it succeeds), or use another tool.';
  return new LocalCallError({
    server,
    tool,
    reason: 'circuit_open',
    message: `The call of ${tool} was refused locally: ${state}. Nothing was sent and nothing was changed. ${next}`,
  });
}
