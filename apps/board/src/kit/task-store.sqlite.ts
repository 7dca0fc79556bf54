/**
 * The tasks-extension {@link TaskStore} on the board's SQLite database (table `mcp_tasks`): tasks survive a
 * restart of the board, and a task left `working` by a process that died is failed once its lease ended.
 *
 * @packageDocumentation
 */
import type { Database, Statement } from 'better-sqlite3';
import type { TaskStore } from '@recourse/server';
import { waitingOutBusy } from '../store/busy-retry.ts';
import { createSerialLock, type SerialLock } from '../store/serial-lock.ts';
import { ACTIVE_SQL, INSERT_COLUMNS, patchPairs, rowValues, taskOfRow, type TaskRow } from './task-row.ts';

/**
 * Creates the store on a migrated board database; `lock` is the connection's shared writer lock. A write that
 * finds the database locked by another process (another board on the same file, a backup) is waited out between
 * turns of the lock, for up to 2 s, and then fails with the `transient` DATABASE_BUSY.
 */
export function createSqliteTaskStore(db: Database, options: { lock?: SerialLock } = {}): TaskStore {
  const lock = waitingOutBusy(options.lock ?? createSerialLock());
  const insert = db.prepare(
    `INSERT INTO mcp_tasks (${INSERT_COLUMNS}) VALUES (${Array(17).fill('?').join(', ')})`,
  );
  const select = db.prepare('SELECT * FROM mcp_tasks WHERE task_id = ?');
  const renew = db.prepare(
    `UPDATE mcp_tasks SET lease_until = ? WHERE instance_id = ? AND status IN ${ACTIVE_SQL} RETURNING task_id, cancel_requested`,
  );
  const orphans = db.prepare(
    `UPDATE mcp_tasks SET status = 'failed', error = ?, status_message = ?, input_requests = '{}',
       last_updated_at = ?, version = version + 1
     WHERE status IN ${ACTIVE_SQL} AND lease_until < ?`,
  );
  const purge = db.prepare('DELETE FROM mcp_tasks WHERE created_at + ttl_ms < ?');
  const patches = new Map<string, Statement>();
  return {
    insert(task) {
      return lock.runSync(() => {
        insert.run(...rowValues(task, 'integer'));
      });
    },
    find(taskId) {
      const row = select.get(taskId) as TaskRow | undefined;
      return Promise.resolve(row === undefined ? undefined : taskOfRow(row));
    },
    patch(taskId, expectedVersion, patch, now) {
      const pairs = patchPairs(patch, 'integer');
      const sets = [
        ...pairs.map(([column]) => `${column} = ?`),
        'last_updated_at = ?',
        'version = version + 1',
      ];
      const sql = `UPDATE mcp_tasks SET ${sets.join(', ')} WHERE task_id = ? AND version = ? AND status IN ${ACTIVE_SQL} RETURNING *`;
      let statement = patches.get(sql);
      if (statement === undefined) {
        statement = db.prepare(sql);
        patches.set(sql, statement);
      }
      return lock.runSync(() => {
        const row = statement.get(...pairs.map(([, value]) => value), now, taskId, expectedVersion) as
          TaskRow | undefined;
        return row === undefined ? undefined : taskOfRow(row);
      });
    },
    renewLeases(instanceId, leaseUntil) {
      return lock.runSync(() => {
        const rows = renew.all(leaseUntil, instanceId) as { task_id: string; cancel_requested: number }[];
        return rows.filter((row) => row.cancel_requested === 1).map((row) => row.task_id);
      });
    },
    failOrphans(now, error, statusMessage) {
      return lock.runSync(() => orphans.run(JSON.stringify(error), statusMessage, now, now).changes);
    },
    purgeExpired(now) {
      return lock.runSync(() => purge.run(now).changes);
    },
  };
}
