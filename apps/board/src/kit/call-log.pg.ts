/**
 * The kit's call log on PostgreSQL (table `call_log`), shared by every board instance. Never holds arguments.
 *
 * @packageDocumentation
 */
import type { Pool } from 'pg';
import { toCallLogEntry, type BoardCallLog, type CallLogRow } from './call-log.ts';

/** Creates the PostgreSQL call log on a migrated board database. */
export function createPgCallLog(pool: Pool): BoardCallLog {
  return {
    async record(entry) {
      await pool.query(
        'INSERT INTO call_log (at, member_id, tool, outcome, code, duration_ms, correlation_id) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [
          entry.at,
          entry.principalId,
          entry.tool,
          entry.outcome,
          entry.code,
          Math.round(entry.durationMs),
          entry.correlationId,
        ],
      );
    },
    async recent(query = {}) {
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
  };
}
