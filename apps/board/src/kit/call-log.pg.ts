/**
 * The kit's call log on PostgreSQL (table `call_log`), shared by every board instance. Never holds arguments.
 * Entries are written in batches off the call path, one multi-row INSERT per batch (`call-log-buffer.ts`: at
 * most 100 ms late, flushed before every read and at `close()`, lost only when the process dies without closing).
 *
 * @packageDocumentation
 */
import type { Pool } from 'pg';
import type { CallLogEntry } from '@recourse/server';
import { toCallLogEntry, type BoardCallLog, type CallLogRow } from './call-log.ts';
import { createCallLogBuffer, type CallLogBufferOptions } from './call-log-buffer.ts';

const COLUMNS = 7;

async function insertBatch(pool: Pool, entries: readonly CallLogEntry[]): Promise<void> {
  const values: unknown[] = [];
  const rows = entries.map((entry, row) => {
    values.push(
      entry.at,
      entry.principalId,
      entry.tool,
      entry.outcome,
      entry.code,
      Math.round(entry.durationMs),
      entry.correlationId,
    );
    const base = row * COLUMNS;
    return `(${Array.from({ length: COLUMNS }, (_, i) => `$${String(base + i + 1)}`).join(', ')})`;
  });
  await pool.query(
    `INSERT INTO call_log (at, member_id, tool, outcome, code, duration_ms, correlation_id) VALUES ${rows.join(', ')}`,
    values,
  );
}

/** Creates the PostgreSQL call log on a migrated board database. */
export function createPgCallLog(pool: Pool, options: { buffer?: CallLogBufferOptions } = {}): BoardCallLog {
  const buffer = createCallLogBuffer((entries) => insertBatch(pool, entries), options.buffer);
  return {
    record(entry) {
      buffer.add(entry);
      return Promise.resolve();
    },
    async recent(query = {}) {
      await buffer.flush();
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
    flush: () => buffer.flush(),
    close: () => buffer.close(),
  };
}
