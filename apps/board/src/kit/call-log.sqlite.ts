/**
 * The kit's {@link CallLogSink} on the board's SQLite database (table `call_log`), and the reader the CLI's
 * `log` command uses. Argument values are never stored. Entries are written in batches off the call path
 * (`call-log-buffer.ts`: at most 100 ms late, flushed before every read and at `close()`, lost only when the
 * process dies without closing).
 *
 * @packageDocumentation
 */
import type { Database } from 'better-sqlite3';
import type { CallLogEntry } from '@recourse/server';
import {
  CALL_LOG_COLUMNS,
  callLogValues,
  toCallLogEntry,
  type BoardCallLog,
  type CallLogQuery,
  type CallLogRow,
} from './call-log.ts';
import { createCallLogBuffer, type CallLogBufferOptions } from './call-log-buffer.ts';
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
 * connection (see `createSqliteBoardStore`), none by default. Each batch is one transaction.
 */
export function createSqliteCallLog(
  db: Database,
  options: { lock?: SerialLock; buffer?: CallLogBufferOptions } = {},
): SqliteCallLog {
  const insert = db.prepare(`INSERT INTO call_log (${CALL_LOG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const insertAll = db.transaction((entries: readonly CallLogEntry[]) => {
    for (const entry of entries) insert.run(...callLogValues(entry));
  });
  const writeBatch = (entries: readonly CallLogEntry[]): Promise<void> => {
    // Closed with the board: nothing can be written any more (close() flushed what it could).
    if (!db.open) return Promise.reject(new Error('the board database is closed'));
    const lock = options.lock;
    const attempt = lock
      ? () => lock.queueSync(() => void insertAll(entries))
      : () => {
          insertAll(entries);
          return Promise.resolve();
        };
    // A database locked by another process is waited out off the call path, so that the calls that failed
    // because it was busy are still logged.
    return retryWhileBusy(attempt, { budgetMs: CALL_LOG_BUSY_BUDGET_MS, maxPauseMs: 1000 });
  };
  const buffer = createCallLogBuffer(writeBatch, options.buffer);
  return {
    record(entry) {
      buffer.add(entry);
      return Promise.resolve();
    },
    async recent(query = {}) {
      await buffer.flush();
      return readRecent(query);
    },
    flush: () => buffer.flush(),
    close: () => buffer.close(),
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
