/**
 * The board's call log as the CLI reads it: the kit's {@link CallLogSink} plus a reader, for either database.
 *
 * @packageDocumentation
 */
import type { CallLogEntry, CallLogSink } from '@recourse/server';

/** Filters for {@link BoardCallLog.recent}. */
export interface CallLogQuery {
  /** How many entries, newest first (default 50). */
  readonly limit?: number;
  readonly memberId?: string;
  readonly tool?: string;
}

/** A durable call log: `record` appends one entry (never argument values), `recent` reads newest first. */
export interface BoardCallLog extends CallLogSink {
  record(entry: CallLogEntry): Promise<void>;
  recent(query?: CallLogQuery): Promise<CallLogEntry[]>;
}
