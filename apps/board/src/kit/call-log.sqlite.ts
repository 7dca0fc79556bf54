/**
 * The kit's {@link CallLogSink} on the board's SQLite database (table `call_log`), and the reader the CLI's
 * `log` command uses. Argument values are never stored.
 *
 * @packageDocumentation
 */
import type { Database } from 'better-sqlite3';
import type { CallLogEntry } from '@recourse/server';
import { toCallLogEntry, type BoardCallLog, type CallLogQuery, type CallLogRow } from './call-log.ts';
import type { SerialLock } from '../store/serial-lock.ts';
import { retryWhileBusy } from '../store/busy-retry.ts';

/**
 * How long a call-log entry waits for a database locked by another process before it is given up (and the
 * kit logs a warning): 5 minutes, so that a call which failed because the database was busy is still logged.
 */
export const CALL_LOG_BUSY_BUDGET_MS = 300_000;

/** The SQLite call log. */
export type SqliteCallLog = BoardCallLog;

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
          entry.principalId,
          entry.tool,
          entry.outcome,
          entry.code,
          Math.round(entry.durationMs),
          entry.correlationId,
        );
      const lock = options.lock;
      const attempt = lock
        ? () => lock.queueSync(() => void write())
        : () => {
            write();
            return Promise.resolve();
          };
      // The kit does not await the entry; waiting here holds nothing but the entry itself.
      return retryWhileBusy(attempt, { budgetMs: CALL_LOG_BUSY_BUDGET_MS, maxPauseMs: 1000 });
    },
    recent(query = {}) {
      return Promise.resolve(readRecent(query));
    },
  };

  function readRecent(query: CallLogQuery): CallLogEntry[] {
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
      .all(...params, query.limit ?? 50) as CallLogRow[];
    return rows.map(toCallLogEntry);
  }
}
