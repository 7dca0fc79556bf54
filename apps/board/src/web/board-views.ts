/**
 * The HTML of the board, task, new-task and members pages. Edit controls are rendered only for roles that hold
 * the permission (a viewer sees none); the tools still check every action.
 *
 * @packageDocumentation
 */
import { CSRF_FIELD, html, type SafeHtml } from '../pages/index.ts';
import type { Member } from '../domain/member.ts';
import { grantOf } from '../domain/roles.ts';
import { TASK_STATUSES, type Comment, type HistoryEntry, type Task } from '../domain/task.ts';
import { BOARD_BASE } from './web-layout.ts';

/** The board's filters, as the query string carries them. */
export interface BoardFilters {
  readonly assignee: string;
  readonly label: string;
  readonly text: string;
}

/** Whether `member`'s role holds `permission` (fully or on a condition). */
export const may = (member: Member, permission: string): boolean =>
  grantOf(member.role, permission) !== undefined;

const nameOf = (members: readonly Member[], id: string | null): string =>
  id === null ? 'unassigned' : (members.find((m) => m.id === id)?.name ?? id);

function card(task: Task, members: readonly Member[]): SafeHtml {
  return html`<li class="card" data-ref="${task.ref}">
    <p><a href="${BOARD_BASE}/tasks/${task.ref}">${task.ref}: ${task.title}</a></p>
    <p class="muted">
      ${nameOf(members, task.assignee)}${task.labels.length > 0 ? ` · ${task.labels.join(', ')}` : ''}${
        task.due === null ? '' : ` · due ${task.due}`
      }
    </p>
  </li>`;
}

/** The columns by status and the filter form; `stamp` lets the script notice changes. */
export function boardView(
  tasks: readonly Task[],
  members: readonly Member[],
  filters: BoardFilters,
  stamp: string,
): SafeHtml {
  const options = members.map(
    (m) =>
      html`<option value="${m.id}" ${filters.assignee === m.id ? html`selected` : ''}>
        ${m.name} (${m.kind})
      </option>`,
  );
  return html`<form class="filters" method="get" action="${BOARD_BASE}" role="search">
      <div>
        <label for="f-assignee">Assignee</label>
        <select id="f-assignee" name="assignee">
          <option value="">Anyone</option>
          <option value="none" ${filters.assignee === 'none' ? html`selected` : ''}>Unassigned</option>
          ${options}
        </select>
      </div>
      <div>
        <label for="f-label">Label</label>
        <input id="f-label" name="label" value="${filters.label}" />
      </div>
      <div>
        <label for="f-text">Text</label>
        <input id="f-text" name="q" type="search" value="${filters.text}" />
      </div>
      <div><button type="submit">Filter</button></div>
    </form>
    <p id="live-status" class="muted" role="status" aria-live="polite"></p>
    <div id="columns" class="columns" data-stamp="${stamp}">
      ${TASK_STATUSES.map((status) => {
        const inColumn = tasks.filter((t) => t.status === status);
        return html`<section class="column" aria-labelledby="col-${status}">
          <h2 id="col-${status}">${status} (${inColumn.length})</h2>
          <ul class="cards" data-status="${status}">
            ${inColumn.map((t) => card(t, members))}
          </ul>
        </section>`;
      })}
    </div>`;
}

function csrfInput(token: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}" />`;
}

/** The fields of a task's edit form, pre-filled with `values`. */
function editFields(values: { title: string; description: string; labels: string; due: string }): SafeHtml {
  return html`<label for="e-title">Title</label>
    <input id="e-title" name="title" required maxlength="200" value="${values.title}" />
    <label for="e-description">Description</label>
    <textarea id="e-description" name="description" maxlength="5000">${values.description}</textarea>
    <label for="e-labels">Labels (separated by commas)</label>
    <input id="e-labels" name="labels" value="${values.labels}" />
    <label for="e-due">Due date (YYYY-MM-DD, empty for none)</label>
    <input id="e-due" name="due" value="${values.due}" />`;
}

/** What an edit form sent, to show again after a refusal. */
export interface EditDraft {
  readonly title: string;
  readonly description: string;
  readonly labels: string;
  readonly due: string;
  readonly version: number;
}

/** The task page: details, comments, history and the forms the member's role allows. */
export function taskView(
  member: Member,
  task: Task,
  comments: readonly Comment[],
  history: readonly HistoryEntry[],
  members: readonly Member[],
  token: string,
  draft?: EditDraft,
): SafeHtml {
  const base = `${BOARD_BASE}/tasks/${task.ref}`;
  const edit = may(member, 'tasks:update')
    ? html`<form method="post" action="${base}/edit" aria-labelledby="edit-h">
        <h2 id="edit-h">Edit</h2>
        ${csrfInput(token)}
        <input type="hidden" name="version" value="${draft?.version ?? task.version}" />
        ${editFields(
          draft ?? {
            title: task.title,
            description: task.description,
            labels: task.labels.join(', '),
            due: task.due ?? '',
          },
        )}
        <button type="submit">Save (version ${draft?.version ?? task.version})</button>
      </form>`
    : '';
  const move = may(member, 'tasks:move')
    ? html`<form method="post" action="${base}/move" aria-labelledby="move-h">
        <h2 id="move-h">Move</h2>
        ${csrfInput(token)}
        <label for="m-status">Status</label>
        <select id="m-status" name="status">
          ${TASK_STATUSES.map(
            (s) => html`<option value="${s}" ${s === task.status ? html`selected` : ''}>${s}</option>`,
          )}
        </select>
        <button type="submit">Move</button>
      </form>`
    : '';
  const assign = may(member, 'tasks:assign')
    ? html`<form method="post" action="${base}/assign" aria-labelledby="assign-h">
        <h2 id="assign-h">Assign</h2>
        ${csrfInput(token)}
        <label for="a-assignee">Assignee</label>
        <select id="a-assignee" name="assignee">
          <option value="">Nobody</option>
          ${members.map(
            (m) =>
              html`<option value="${m.id}" ${m.id === task.assignee ? html`selected` : ''}>
                ${m.name}
              </option>`,
          )}
        </select>
        <button type="submit">Assign</button>
      </form>`
    : '';
  const comment = may(member, 'tasks:comment')
    ? html`<form method="post" action="${base}/comment" aria-labelledby="comment-h">
        <h2 id="comment-h">Comment</h2>
        ${csrfInput(token)}
        <label for="c-body">Comment</label>
        <textarea id="c-body" name="body" required maxlength="5000"></textarea>
        <button type="submit">Add comment</button>
      </form>`
    : '';
  const remove = may(member, 'tasks:delete')
    ? html`<form method="post" action="${base}/delete" aria-labelledby="delete-h">
        <h2 id="delete-h">Delete</h2>
        ${csrfInput(token)}
        <button type="submit">Delete ${task.ref}</button>
      </form>`
    : '';
  return html`<dl>
      <dt>Status</dt>
      <dd id="task-status">${task.status}</dd>
      <dt>Assignee</dt>
      <dd>${nameOf(members, task.assignee)}</dd>
      <dt>Labels</dt>
      <dd>${task.labels.length > 0 ? task.labels.join(', ') : 'none'}</dd>
      <dt>Due</dt>
      <dd>${task.due ?? 'none'}</dd>
      <dt>Version</dt>
      <dd id="task-version">${task.version}</dd>
    </dl>
    <h2>Description</h2>
    <p id="task-description">${task.description === '' ? 'No description.' : task.description}</p>
    <h2>Comments (${comments.length})</h2>
    <ul>
      ${comments.map((c) => html`<li>${nameOf(members, c.authorId)} at ${c.createdAt}: ${c.body}</li>`)}
    </ul>
    <h2>History</h2>
    <ol>
      ${history.map(
        (h) =>
          html`<li>
            ${h.at}: ${nameOf(members, h.memberId)} ${h.action}${h.field === null ? '' : ` ${h.field}`}
            ${h.from === null ? '' : ` from "${h.from}"`}${h.to === null ? '' : ` to "${h.to}"`}
          </li>`,
      )}
    </ol>
    ${edit} ${move} ${assign} ${comment} ${remove}`;
}

/** The new-task form. */
export function newTaskView(token: string, values?: { title: string; description: string }): SafeHtml {
  return html`<form method="post" action="${BOARD_BASE}/new">
    ${csrfInput(token)}
    <label for="n-title">Title</label>
    <input id="n-title" name="title" required maxlength="200" value="${values?.title ?? ''}" />
    <label for="n-description">Description</label>
    <textarea id="n-description" name="description" maxlength="5000">${values?.description ?? ''}</textarea>
    <label for="n-labels">Labels (separated by commas)</label>
    <input id="n-labels" name="labels" />
    <button type="submit">Create task</button>
  </form>`;
}

/** The members page. */
export function membersView(members: readonly Member[]): SafeHtml {
  return html`<table>
    <caption class="sr-only">
      Members of the board
    </caption>
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">Id</th>
        <th scope="col">Kind</th>
        <th scope="col">Role</th>
      </tr>
    </thead>
    <tbody>
      ${members.map(
        (m) =>
          html`<tr>
            <td>${m.name}</td>
            <td><code>${m.id}</code></td>
            <td>${m.kind}</td>
            <td>${m.role}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
