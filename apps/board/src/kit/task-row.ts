/**
 * One tasks-extension task as a database row (table `mcp_tasks`), shared by the SQLite and PostgreSQL task
 * stores: column names, and the conversion both ways (JSON columns as text on SQLite, JSONB on PostgreSQL).
 *
 * @packageDocumentation
 */
import type { StoredTask, TaskPatch } from '@recourse/server';

/** A row as a driver returns it (numbers may come back as strings from PostgreSQL BIGINT columns). */
export interface TaskRow {
  task_id: string;
  owner_id: string;
  tool: string;
  status: string;
  status_message: string | null;
  created_at: number | string;
  last_updated_at: number | string;
  ttl_ms: number | string;
  poll_interval_ms: number | string;
  result: unknown;
  error: unknown;
  input_requests: unknown;
  input_responses: unknown;
  cancel_requested: number | boolean;
  instance_id: string;
  lease_until: number | string;
  version: number | string;
}

/** The column of each patchable field. */
export const PATCH_COLUMNS: Readonly<Record<keyof TaskPatch, string>> = {
  status: 'status',
  statusMessage: 'status_message',
  result: 'result',
  error: 'error',
  inputRequests: 'input_requests',
  inputResponses: 'input_responses',
  cancelRequested: 'cancel_requested',
  leaseUntil: 'lease_until',
  pollIntervalMs: 'poll_interval_ms',
};

/** Fields stored as JSON. */
export const JSON_FIELDS: ReadonlySet<keyof TaskPatch> = new Set([
  'result',
  'error',
  'inputRequests',
  'inputResponses',
]);

function json(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** Converts a row into a stored task. */
export function taskOfRow(row: TaskRow): StoredTask {
  return {
    taskId: row.task_id,
    ownerId: row.owner_id,
    tool: row.tool,
    status: row.status as StoredTask['status'],
    statusMessage: row.status_message,
    createdAt: Number(row.created_at),
    lastUpdatedAt: Number(row.last_updated_at),
    ttlMs: Number(row.ttl_ms),
    pollIntervalMs: Number(row.poll_interval_ms),
    result: (json(row.result) ?? null) as StoredTask['result'],
    error: (json(row.error) ?? null) as StoredTask['error'],
    inputRequests: (json(row.input_requests) ?? {}) as StoredTask['inputRequests'],
    inputResponses: (json(row.input_responses) ?? {}) as StoredTask['inputResponses'],
    cancelRequested: row.cancel_requested === true || row.cancel_requested === 1,
    instanceId: row.instance_id,
    leaseUntil: Number(row.lease_until),
    version: Number(row.version),
  };
}

/** The insert values of a task, in column order of {@link INSERT_COLUMNS}; JSON fields as text. */
export function rowValues(task: StoredTask, booleans: 'integer' | 'boolean'): unknown[] {
  return [
    task.taskId,
    task.ownerId,
    task.tool,
    task.status,
    task.statusMessage,
    task.createdAt,
    task.lastUpdatedAt,
    task.ttlMs,
    task.pollIntervalMs,
    task.result === null ? null : JSON.stringify(task.result),
    task.error === null ? null : JSON.stringify(task.error),
    JSON.stringify(task.inputRequests),
    JSON.stringify(task.inputResponses),
    booleans === 'integer' ? (task.cancelRequested ? 1 : 0) : task.cancelRequested,
    task.instanceId,
    task.leaseUntil,
    task.version,
  ];
}

/** The columns of an insert, matching {@link rowValues}. */
export const INSERT_COLUMNS =
  'task_id, owner_id, tool, status, status_message, created_at, last_updated_at, ttl_ms, poll_interval_ms, ' +
  'result, error, input_requests, input_responses, cancel_requested, instance_id, lease_until, version';

/** A patch as `[column, value]` pairs (JSON as text, booleans as the driver wants them). */
export function patchPairs(patch: TaskPatch, booleans: 'integer' | 'boolean'): [string, unknown][] {
  return (Object.keys(patch) as (keyof TaskPatch)[])
    .filter((key) => patch[key] !== undefined)
    .map((key) => {
      const value = patch[key];
      if (JSON_FIELDS.has(key)) return [PATCH_COLUMNS[key], value === null ? null : JSON.stringify(value)];
      if (key === 'cancelRequested')
        return [PATCH_COLUMNS[key], booleans === 'integer' ? (value ? 1 : 0) : value];
      return [PATCH_COLUMNS[key], value];
    });
}

/** The statuses a write may still change, as an SQL list. */
export const ACTIVE_SQL = "('working', 'input_required')";
