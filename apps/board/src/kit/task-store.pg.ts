/**
 * The tasks-extension {@link TaskStore} on PostgreSQL (table `mcp_tasks`), shared by every board instance: any
 * instance answers for any task, and a task whose instance died is failed once its lease ended.
 *
 * @packageDocumentation
 */
import type { Pool } from 'pg';
import type { TaskStore } from '@recourse/server';
import { ACTIVE_SQL, INSERT_COLUMNS, patchPairs, rowValues, taskOfRow, type TaskRow } from './task-row.ts';

/** Creates the store on a migrated board database. */
export function createPgTaskStore(pool: Pool): TaskStore {
  const placeholders = Array.from({ length: 17 }, (_, i) => `$${i + 1}`).join(', ');
  return {
    async insert(task) {
      await pool.query(
        `INSERT INTO mcp_tasks (${INSERT_COLUMNS}) VALUES (${placeholders})`,
        rowValues(task, 'boolean'),
      );
    },
    async find(taskId) {
      const { rows } = await pool.query<TaskRow>('SELECT * FROM mcp_tasks WHERE task_id = $1', [taskId]);
      return rows[0] === undefined ? undefined : taskOfRow(rows[0]);
    },
    async patch(taskId, expectedVersion, patch, now) {
      const pairs = patchPairs(patch, 'boolean');
      const sets = pairs.map(([column], i) => `${column} = $${i + 1}`);
      const n = pairs.length;
      sets.push(`last_updated_at = $${n + 1}`, 'version = version + 1');
      const { rows } = await pool.query<TaskRow>(
        `UPDATE mcp_tasks SET ${sets.join(', ')}
         WHERE task_id = $${n + 2} AND version = $${n + 3} AND status IN ${ACTIVE_SQL} RETURNING *`,
        [...pairs.map(([, value]) => value), now, taskId, expectedVersion],
      );
      return rows[0] === undefined ? undefined : taskOfRow(rows[0]);
    },
    async renewLeases(instanceId, leaseUntil) {
      const { rows } = await pool.query<{ task_id: string; cancel_requested: boolean }>(
        `UPDATE mcp_tasks SET lease_until = $1 WHERE instance_id = $2 AND status IN ${ACTIVE_SQL}
         RETURNING task_id, cancel_requested`,
        [leaseUntil, instanceId],
      );
      return rows.filter((row) => row.cancel_requested).map((row) => row.task_id);
    },
    async failOrphans(now, error, statusMessage) {
      const result = await pool.query(
        `UPDATE mcp_tasks SET status = 'failed', error = $1, status_message = $2, input_requests = '{}',
           last_updated_at = $3, version = version + 1
         WHERE status IN ${ACTIVE_SQL} AND lease_until < $3`,
        [JSON.stringify(error), statusMessage, now],
      );
      return result.rowCount ?? 0;
    },
    async purgeExpired(now) {
      const result = await pool.query('DELETE FROM mcp_tasks WHERE created_at + ttl_ms < $1', [now]);
      return result.rowCount ?? 0;
    },
  };
}
