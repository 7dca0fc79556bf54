/**
 * The whole board as one export, for `board_export` running as a task: every member (never a secret), every task
 * with its comments and history, as JSON or as CSV tables; progress after every batch, stopped by the signal.
 * Between batches other requests get a turn of the event loop, so a large export never holds up the server.
 *
 * @packageDocumentation
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { stringify } from 'csv-stringify/sync';
import type { ToolContext, ToolSuccess } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { memberData, taskData } from './render.ts';

/** Tasks read per batch; progress is reported after each. */
export const EXPORT_BATCH = 100;

interface ExportedTask extends Record<string, unknown> {
  readonly ref: string;
  readonly comments: Record<string, unknown>[];
  readonly history: Record<string, unknown>[];
}

function table(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  const cell = (value: unknown): string =>
    value === null || value === undefined
      ? ''
      : Array.isArray(value)
        ? value.join(';')
        : typeof value === 'string'
          ? value
          : JSON.stringify(value);
  return stringify(
    rows.map((row) => columns.map((column) => cell(row[column]))),
    { header: true, columns: [...columns] },
  );
}

const TASK_COLUMNS = [
  'ref',
  'title',
  'description',
  'status',
  'assignee',
  'labels',
  'due',
  'version',
  'createdBy',
  'createdAt',
  'updatedAt',
] as const;

/**
 * Exports everything, `EXPORT_BATCH` tasks at a time. Throws the signal's reason when the call is cancelled or
 * misses its deadline between two reads (nothing is written either way).
 */
export async function exportWholeBoard(
  services: BoardServices,
  format: 'json' | 'csv',
  ctx: ToolContext,
): Promise<ToolSuccess> {
  const members = (await services.members.list(true)).map(memberData);
  const tasks: ExportedTask[] = [];
  let total = await services.store.countTasks();
  for (let offset = 0; offset < total; offset += EXPORT_BATCH) {
    ctx.signal.throwIfAborted();
    const page = await services.tasks.search({ limit: EXPORT_BATCH, offset });
    total = page.total;
    for (const task of page.tasks) {
      ctx.signal.throwIfAborted();
      const [comments, history] = await Promise.all([
        services.store.listComments(task.ref),
        services.store.listHistory(task.ref),
      ]);
      tasks.push({
        ...taskData(task),
        ref: task.ref,
        comments: comments.map((c) => ({ ...c })),
        history: history.map((h) => ({ ...h })),
      });
    }
    await ctx.progress(tasks.length, total, `Exported ${tasks.length} of ${total} tasks.`);
    // SQLite reads are synchronous: give other requests (polls, tasks/cancel) a turn between batches.
    await nextTurn();
  }
  const exportedAt = new Date().toISOString();
  const summary = `Exported the whole board as ${format.toUpperCase()}: ${tasks.length} tasks with their comments and history, and ${members.length} members.`;
  if (format === 'json') {
    return {
      text: `${summary} The export is in structuredContent.`,
      structuredContent: { exportedAt, total: tasks.length, members, tasks },
    };
  }
  const csv = {
    members: table(members, ['id', 'name', 'kind', 'role', 'createdAt']),
    tasks: table(tasks, TASK_COLUMNS),
    comments: table(
      tasks.flatMap((task) => task.comments),
      ['id', 'ref', 'authorId', 'body', 'createdAt'],
    ),
    history: table(
      tasks.flatMap((task) => task.history),
      ['ref', 'memberId', 'action', 'field', 'from', 'to', 'at'],
    ),
  };
  return {
    text: `${summary} Four CSV tables (members, tasks, comments, history) are in structuredContent.csv.`,
    structuredContent: { exportedAt, total: tasks.length, format: 'csv', csv },
  };
}
