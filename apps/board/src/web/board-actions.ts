/**
 * The task page and every form action of the board pages, each a tool call as the signed-in member. A refusal
 * is shown with the tool's own text; an edit on a stale version shows the conflict beside the current task.
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Member } from '../domain/member.ts';
import type { Comment, HistoryEntry, Task } from '../domain/task.ts';
import type { MemberService } from '../services/member-service.ts';
import { html, type SafeHtml } from '../pages/index.ts';
import { newTaskView, taskView, type EditDraft } from './board-views.ts';
import { alertBox, BOARD_BASE, boardPageHeaders } from './web-layout.ts';
import { statusOf, type ToolAnswer, type ToolCaller } from './tool-caller.ts';

/** What the actions need. */
export interface BoardActionDeps {
  readonly call: ToolCaller;
  readonly members: MemberService;
  readonly token: (req: IncomingMessage, res: ServerResponse, member: Member) => string;
  readonly send: (
    res: ServerResponse,
    title: string,
    member: Member,
    body: SafeHtml,
    status?: number,
  ) => void;
}

const TASK_PATH = /^\/board\/tasks\/(T-[1-9][0-9]{0,9})(?:\/(edit|move|assign|comment|delete))?$/;

/** Labels typed as `a, b` become `['a', 'b']`. */
const labelsOf = (text: string): string[] =>
  text
    .split(',')
    .map((l) => l.trim())
    .filter((l) => l !== '');

function seeOther(res: ServerResponse, location: string): void {
  res.writeHead(303, { ...boardPageHeaders(), location });
  res.end();
}

/** Creates the task page and the form actions. */
export function createBoardActions(deps: BoardActionDeps) {
  const { call } = deps;

  /** Renders the task page, with an optional refusal above it and a draft in the edit form. */
  async function showTask(
    req: IncomingMessage,
    res: ServerResponse,
    member: Member,
    ref: string,
    notice?: { answer: ToolAnswer; draft?: EditDraft },
  ): Promise<void> {
    const got = await call(member, 'tasks_get', { ref });
    if (!got.ok) {
      const prior =
        notice !== undefined && !notice.answer.ok ? alertBox(notice.answer.text, 'action-problem') : '';
      return deps.send(res, `Task ${ref}`, member, html`${prior}${alertBox(got.text)}`, statusOf(got));
    }
    const task = got.data['task'] as Task;
    const members = await deps.members.list(true);
    const problem =
      notice === undefined || notice.answer.ok ? '' : alertBox(notice.answer.text, 'action-problem');
    const conflict =
      notice !== undefined && !notice.answer.ok && notice.answer.code === 'VERSION_CONFLICT'
        ? html`<p class="ok" id="conflict-note">
            Your edit was not saved. The task below is the current version ${task.version}; your text is kept
            in the edit form. Compare, then save again to replace version ${task.version}.
          </p>`
        : '';
    const draft = notice?.draft === undefined ? undefined : { ...notice.draft, version: task.version };
    deps.send(
      res,
      `${task.ref}: ${task.title}`,
      member,
      html`${problem}${conflict}${taskView(
        member,
        task,
        got.data['comments'] as Comment[],
        got.data['history'] as HistoryEntry[],
        members,
        deps.token(req, res, member),
        draft,
      )}`,
      notice === undefined ? 200 : statusOf(notice.answer),
    );
  }

  async function act(
    req: IncomingMessage,
    res: ServerResponse,
    member: Member,
    ref: string,
    action: string,
    fields: URLSearchParams,
  ): Promise<void> {
    const text = (name: string) => fields.get(name) ?? '';
    if (action === 'edit') {
      const draft: EditDraft = {
        title: text('title'),
        description: text('description'),
        labels: text('labels'),
        due: text('due'),
        version: Number(text('version')),
      };
      const answer = await call(member, 'tasks_update', {
        ref,
        expectedVersion: draft.version,
        title: draft.title,
        description: draft.description,
        labels: labelsOf(draft.labels),
        due: draft.due.trim() === '' ? null : draft.due.trim(),
      });
      if (answer.ok) return seeOther(res, `${BOARD_BASE}/tasks/${ref}`);
      return showTask(req, res, member, ref, { answer, draft });
    }
    const argsByAction: Record<string, [string, Record<string, unknown>]> = {
      move: ['tasks_move', { ref, status: text('status') }],
      assign: ['tasks_assign', { ref, assignee: text('assignee') === '' ? null : text('assignee') }],
      comment: ['tasks_comment', { ref, body: text('body') }],
      delete: ['tasks_delete', { ref }],
    };
    const [tool, args] = argsByAction[action] ?? ['tasks_get', { ref }];
    const answer = await call(member, tool, args);
    if (answer.ok) return seeOther(res, action === 'delete' ? BOARD_BASE : `${BOARD_BASE}/tasks/${ref}`);
    return showTask(req, res, member, ref, { answer });
  }

  async function create(req: IncomingMessage, res: ServerResponse, member: Member, fields: URLSearchParams) {
    const title = fields.get('title') ?? '';
    const description = fields.get('description') ?? '';
    const labels = labelsOf(fields.get('labels') ?? '');
    const answer = await call(member, 'tasks_create', {
      title,
      ...(description === '' ? {} : { description }),
      ...(labels.length === 0 ? {} : { labels }),
    });
    if (answer.ok) return seeOther(res, `${BOARD_BASE}/tasks/${(answer.data['task'] as Task).ref}`);
    deps.send(
      res,
      'New task',
      member,
      html`${alertBox(answer.text, 'action-problem')}${newTaskView(deps.token(req, res, member), { title, description })}`,
      statusOf(answer),
    );
  }

  return {
    /** Serves the task page; false when `path` is not one. */
    async get(req: IncomingMessage, res: ServerResponse, path: string, member: Member): Promise<boolean> {
      const match = TASK_PATH.exec(path);
      if (match === null || match[2] !== undefined) return false;
      await showTask(req, res, member, match[1] ?? '');
      return true;
    },
    /** Runs a form action (CSRF already checked); false when `path` is not one. */
    async post(
      req: IncomingMessage,
      res: ServerResponse,
      path: string,
      member: Member,
      fields: URLSearchParams,
    ): Promise<boolean> {
      if (path === `${BOARD_BASE}/new`) {
        await create(req, res, member, fields);
        return true;
      }
      const match = TASK_PATH.exec(path);
      if (match === null || match[2] === undefined) return false;
      await act(req, res, member, match[1] ?? '', match[2], fields);
      return true;
    },
  };
}
