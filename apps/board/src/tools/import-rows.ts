/**
 * Row-by-row import: every row is checked on its own (shape of a new task, active assignee); the valid rows are
 * created in one transaction and the refused ones are reported with their row number and reason. With
 * `allOrNone`, one refused row refuses the whole import and nothing is created.
 *
 * @packageDocumentation
 */
import { describeIssue, invalidArgument } from '@recourse/core';
import type { ToolSuccess } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import type { WriteContext } from '../services/write-context.ts';
import type { NewTask } from '../services/task-service.ts';
import { newTaskSchema, toNewTask } from './schemas.ts';

/** One refused row: its 1-based number in the source and why. */
export interface RefusedRow {
  readonly row: number;
  readonly reason: string;
}

/** Most refused rows named in the text (all are in structuredContent). */
const NAMED_IN_TEXT = 20;

function refusalOf(row: unknown, index: number): string | undefined {
  const parsed = newTaskSchema.safeParse(row);
  if (parsed.success) return undefined;
  return parsed.error.issues
    .slice(0, 3)
    .map((issue) => describeIssue(issue, row, newTaskSchema).sentence)
    .join(' ')
    .replace(/^/, `Row ${index + 1}: `);
}

/** Checks the rows; answers the valid ones (with their row numbers) and the refused ones. */
export async function checkRows(
  services: BoardServices,
  rows: readonly unknown[],
): Promise<{ valid: { row: number; task: NewTask }[]; refused: RefusedRow[] }> {
  const valid: { row: number; task: NewTask }[] = [];
  const refused: RefusedRow[] = [];
  const members = new Map<string, boolean>();
  for (const [index, row] of rows.entries()) {
    const problem = refusalOf(row, index);
    if (problem !== undefined) {
      refused.push({ row: index + 1, reason: problem });
      continue;
    }
    const task = toNewTask(newTaskSchema.parse(row));
    if (task.assignee !== undefined && task.assignee !== null) {
      let active = members.get(task.assignee);
      if (active === undefined) {
        const member = await services.store.getMember(task.assignee);
        active = member !== undefined && member.revokedAt === null;
        members.set(task.assignee, active);
      }
      if (!active) {
        refused.push({
          row: index + 1,
          reason: `Row ${index + 1}: assignee ${task.assignee} is not an active member (members_list shows who is).`,
        });
        continue;
      }
    }
    valid.push({ row: index + 1, task });
  }
  return { valid, refused };
}

/**
 * Imports `rows` one by one (see the file comment). Fails with `validation` / `IMPORT_ROWS_REFUSED` when
 * `allOrNone` is set and a row is refused, or when no row at all is valid; nothing is created then.
 */
export async function importRows(
  services: BoardServices,
  ctx: WriteContext,
  rows: readonly unknown[],
  allOrNone: boolean,
): Promise<ToolSuccess> {
  const { valid, refused } = await checkRows(services, rows);
  const named = refused
    .slice(0, NAMED_IN_TEXT)
    .map((r) => r.reason)
    .join(' ');
  const more =
    refused.length > NAMED_IN_TEXT
      ? ` And ${refused.length - NAMED_IN_TEXT} more (see structuredContent.refused).`
      : '';
  if (refused.length > 0 && (allOrNone || valid.length === 0)) {
    throw invalidArgument({
      code: 'IMPORT_ROWS_REFUSED',
      field: `tasks[${(refused[0]?.row ?? 1) - 1}]`,
      expected: 'rows shaped like the arguments of tasks_create, with active assignees',
      message: `${refused.length} of ${rows.length} rows were refused${allOrNone ? ' and allOrNone was requested' : ''}, so nothing was imported. ${named}${more}`,
      next: allOrNone
        ? 'Fix the rows named, or import without allOrNone to create the valid rows and get the rest reported.'
        : 'Fix the rows named and import again.',
    });
  }
  const created = await services.tasks.importTasks(
    ctx,
    valid.map((v) => v.task),
  );
  const first = created[0]?.ref ?? '';
  const last = created.at(-1)?.ref ?? '';
  const span = created.length === 0 ? '' : ` as ${first === last ? first : `${first} to ${last}`}`;
  const refusedText = refused.length === 0 ? '' : ` Refused ${refused.length}: ${named}${more}`;
  return {
    text: `Imported ${created.length} of ${rows.length} rows${span}.${refusedText}`,
    structuredContent: {
      changed: created.length,
      created: created.map((task, i) => ({ row: valid[i]?.row ?? 0, ref: task.ref })),
      refused,
    },
  };
}
