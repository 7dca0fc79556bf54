/**
 * An in-memory {@link CallLogSink} for tests and small demos.
 *
 * @packageDocumentation
 */
import type { CallLogEntry, CallLogSink } from './contract.ts';

/** A call log kept in memory: `entries` in the order the calls finished. */
export interface MemoryCallLog extends CallLogSink {
  readonly entries: readonly CallLogEntry[];
  /** Forgets every entry. */
  clear(): void;
}

/** Creates an in-memory call log holding at most `limit` entries (default 10 000; the oldest are dropped). */
export function createMemoryCallLog(limit = 10_000): MemoryCallLog {
  const entries: CallLogEntry[] = [];
  return {
    record(entry) {
      entries.push(entry);
      if (entries.length > limit) entries.splice(0, entries.length - limit);
    },
    get entries() {
      return entries;
    },
    clear() {
      entries.length = 0;
    },
  };
}
