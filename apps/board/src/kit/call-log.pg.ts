/**
 * The kit's call log on PostgreSQL (table `call_log`), shared by every board instance. Never holds arguments.
 * Entries are written off the call path but at once, so that instances sharing the database see each other's
 * calls without delay (SQLite, one process per file, batches instead: `call-log.sqlite.ts`).
 *
 * @packageDocumentation
 */
import type { Pool } from 'pg';
import type { CallLogEntry } from '@recourse/server';
import {
  CALL_LOG_COLUMNS,
  callLogValues,
  toCallLogEntry,
  type BoardCallLog,
  type CallLogRow,
} from './call-log.ts';

async function insertEntry(pool: Pool, entry: CallLogEntry): Promise<void> {
  await pool.query(
    `INSERT INTO call_log (${CALL_LOG_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    callLogValues(entry),
  );
}

/**
 * Creates the PostgreSQL call log on a migrated board database. Each entry is inserted at once but never awaited by
 * its call (the recorder does not wait), so that every instance sees every other instance's calls as soon as they
 * are answered; `flush()` and `close()` wait for the inserts still running. A failed insert goes to `onError`.
 */
export function createPgCallLog(
  pool: Pool,
  options: { onError?: (error: unknown, lost: number) => void } = {},
): BoardCallLog {
  const running = new Set<Promise<void>>();
  const settled = async (): Promise<void> => {
    await Promise.allSettled([...running]);
  };
  return {
    record(entry) {
      const insert = insertEntry(pool, entry).catch((error: unknown) => options.onError?.(error, 1));
      running.add(insert);
      void insert.finally(() => running.delete(insert));
      return insert;
    },
    async recent(query = {}) {
      await settled();
      const where: string[] = [];
      const params: unknown[] = [];
      if (query.memberId !== undefined) {
        params.push(query.memberId);
        where.push(`member_id = $${params.length}`);
      }
      if (query.tool !== undefined) {
        params.push(query.tool);
        where.push(`tool = $${params.length}`);
      }
      params.push(query.limit ?? 50);
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const { rows } = await pool.query<CallLogRow>(
        `SELECT * FROM call_log ${clause} ORDER BY id DESC LIMIT $${params.length}`,
        params,
      );
      return rows.map(toCallLogEntry);
    },
    flush: settled,
    close: settled,
  };
}
