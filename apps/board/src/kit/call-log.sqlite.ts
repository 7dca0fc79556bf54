/**
 * The kit's {@link CallLogSink} on the board's SQLite database (table `call_log`), and the reader the CLI's
 * `log` command uses. Argument values are never stored.
 *
 * @packageDocumentation
 */
import type { Database } from 'better-sqlite3';
import type { CallLogEntry, CallLogSink } from '@recourse/server';
import type { SerialLock } from '../store/serial-lock.ts';

/** Filters for {@link SqliteCallLog.recent}. */
export interface CallLogQuery {
  /** How many entries, newest first (default 50). */
  readonly limit?: number;
  readonly memberId?: string;
  readonly tool?: string;
}

/** A call log in SQLite: `record` appends, `recent` reads newest first. */
export interface SqliteCallLog extends CallLogSink {
  /** Appends one entry (inside the shared lock when one was given). */
  record(entry: CallLogEntry): Promise<void>;
  recent(query?: CallLogQuery): CallLogEntry[];
}

interface Row {
  at: string;
  member_id: string | null;
  tool: string;
  outcome: string;
  code: string | null;
  duration_ms: number;
  correlation_id: string;
}

/**
 * Creates the SQLite call log on a migrated board database; `lock` is the lock shared by every writer of the
 * connection (see `createSqliteBoardStore`), none by default.
 */
export function createSqliteCallLog(db: Database, options: { lock?: SerialLock } = {}): SqliteCallLog {
  const insert = db.prepare(
    'INSERT INTO call_log (at, member_id, tool, outcome, code, duration_ms, correlation_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  return {
    record(entry) {
      const write = () =>
        insert.run(
          entry.at,
          entry.memberId,
          entry.tool,
          entry.outcome,
          entry.code,
          Math.round(entry.durationMs),
          entry.correlationId,
        );
      if (!options.lock) {
        write();
        return Promise.resolve();
      }
      return options.lock.run(() => Promise.resolve().then(() => void write()));
    },
    recent(query = {}) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (query.memberId !== undefined) {
        where.push('member_id = ?');
        params.push(query.memberId);
      }
      if (query.tool !== undefined) {
        where.push('tool = ?');
        params.push(query.tool);
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const rows = db
        .prepare(`SELECT * FROM call_log ${clause} ORDER BY id DESC LIMIT ?`)
        .all(...params, query.limit ?? 50) as Row[];
      return rows.map((r): CallLogEntry => ({
        at: r.at,
        memberId: r.member_id,
        tool: r.tool,
        outcome: r.outcome as CallLogEntry['outcome'],
        code: r.code,
        durationMs: r.duration_ms,
        correlationId: r.correlation_id,
      }));
    },
  };
}
