/**
 * The last log lines of tool calls, kept in memory for the failure console's correlation-id lookup: a pino
 * destination that keeps each JSON line carrying a `correlationId` (at most `capacity`, oldest dropped first).
 *
 * @packageDocumentation
 */
import { Writable } from 'node:stream';

/** How many call log lines are kept by default. */
export const DEFAULT_LOG_RING_CAPACITY = 10_000;

/** A pino destination and the lines it kept. */
export interface LogRing {
  /** Give this to pino (e.g. in `pino.multistream`). */
  readonly stream: Writable;
  /** The kept lines of one call, oldest first. */
  lines(correlationId: string): Record<string, unknown>[];
}

/** Creates a ring keeping at most `capacity` call lines. */
export function createLogRing(capacity = DEFAULT_LOG_RING_CAPACITY): LogRing {
  const kept: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) {
        if (!text.includes('"correlationId"')) continue;
        try {
          const line = JSON.parse(text) as Record<string, unknown>;
          if (typeof line['correlationId'] !== 'string') continue;
          kept.push(line);
          if (kept.length > capacity) kept.shift();
        } catch {
          // Not a JSON line: not one of pino's, nothing to keep.
        }
      }
      done();
    },
  });
  return { stream, lines: (id) => kept.filter((line) => line['correlationId'] === id) };
}
