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

/**
 * A durable call log: `record` hands one entry (never argument values) to a buffer that writes it off the call
 * path, `recent` writes what is buffered and reads newest first, `flush` writes what is buffered, `close`
 * flushes and makes later entries be written at once.
 */
export interface BoardCallLog extends CallLogSink {
  record(entry: CallLogEntry): Promise<void>;
  recent(query?: CallLogQuery): Promise<CallLogEntry[]>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** A `call_log` row, as both databases return it. */
export interface CallLogRow {
  at: string;
  member_id: string | null;
  tool: string;
  outcome: string;
  code: string | null;
  duration_ms: number;
  correlation_id: string;
}

/** Maps a `call_log` row to a {@link CallLogEntry}. */
export function toCallLogEntry(row: CallLogRow): CallLogEntry {
  return {
    at: row.at,
    principalId: row.member_id,
    tool: row.tool,
    outcome: row.outcome as CallLogEntry['outcome'],
    code: row.code,
    durationMs: row.duration_ms,
    correlationId: row.correlation_id,
  };
}

/** The columns an entry is inserted into, in the order of {@link callLogValues}. */
export const CALL_LOG_COLUMNS = 'at, member_id, tool, outcome, code, duration_ms, correlation_id';

/** An entry's values for an insert into {@link CALL_LOG_COLUMNS} (the inverse of {@link toCallLogEntry}). */
export function callLogValues(entry: CallLogEntry): unknown[] {
  return [
    entry.at,
    entry.principalId,
    entry.tool,
    entry.outcome,
    entry.code,
    Math.round(entry.durationMs),
    entry.correlationId,
  ];
}
