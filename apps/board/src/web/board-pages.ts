/**
 * The board's pages for people, under `/board` beside the MCP endpoint: sign-in (the same browser sign-in as the
 * consent pages), the board by status with filters, a task page with its forms, a new-task form, members, and
 * the failure console. Every action is a tool call as the signed-in member (see `tool-caller.ts`), so pages and
 * models meet the same permissions, conditions, rate limits, validation and call log.
 *
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { BoardServer } from '../board-server.ts';
import type { Member } from '../domain/member.ts';
import type { Task } from '../domain/task.ts';
import {
  createCsrf,
  createWebSessions,
  CSRF_FIELD,
  html,
  readForm,
  signInFields,
  type Signer,
} from '../pages/index.ts';
import { sendAsset } from './board-assets.ts';
import { createBoardActions } from './board-actions.ts';
import { boardView, membersView, newTaskView, type BoardFilters } from './board-views.ts';
import { createConsolePages } from './console-pages.ts';
import { alertBox, BOARD_BASE, boardPageHeaders, sendBoardPage } from './web-layout.ts';
import { createToolCaller, statusOf, type ToolAnswer } from './tool-caller.ts';

/** What the pages need. */
export interface BoardPagesDeps {
  readonly board: BoardServer;
  readonly signer: Signer;
  /** The pages' origin, e.g. `http://127.0.0.1:3333`. */
  readonly origin: string;
  readonly log: Logger;
  /** Log lines by correlation id, for the console's lookup (default: none kept). */
  readonly logLines?: (correlationId: string) => readonly Record<string, unknown>[];
}

/** A short fingerprint of every task's ref, status and version: it changes whenever the board does. */
export function boardStamp(tasks: readonly Task[]): string {
  const hash = createHash('sha256');
  for (const t of tasks) hash.update(`${t.ref}:${t.version}:${t.status};`);
  return hash.digest('base64url').slice(0, 16);
}

/** Creates the pages; `handle` answers true when it served the request. */
export function createBoardPages(deps: BoardPagesDeps) {
  const { board, log } = deps;
  const secure = deps.origin.startsWith('https:');
  const csrf = createCsrf(deps.signer, { origin: deps.origin, secure });
  const sessions = createWebSessions(deps.signer, { secure });
  const call = createToolCaller(board.server);
  const purpose = (member: Member) => `board:${member.id}`;
  const token = (req: IncomingMessage, res: ServerResponse, member: Member) =>
    csrf.issue(req, res, purpose(member));

  /**
   * Signs out on the sign-out page's own form (its CSRF token and origin are checked like every form's, so
   * another site cannot sign a person out); a GET, where the navigation's link leads, shows that form.
   */
  async function signOut(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      req.resume();
      sendBoardPage(
        res,
        'Sign out',
        undefined,
        html`<p>Sign out of Recourse Board in this browser?</p>
          <form method="post" action="${BOARD_BASE}/signout">
            <input type="hidden" name="${CSRF_FIELD}" value="${csrf.issue(req, res, 'board-signout')}" />
            <button type="submit">Sign out</button>
          </form>`,
      );
      return;
    }
    const form = await readForm(req);
    if (!form.ok) return sendBoardPage(res, 'Form refused', undefined, alertBox(form.message), form.status);
    const verdict = csrf.verify(req, form.fields.get(CSRF_FIELD) ?? undefined, 'board-signout');
    if (!verdict.ok) return refuseForgery(res, undefined, verdict.reason);
    sessions.end(res);
    res.writeHead(303, { ...boardPageHeaders(), location: `${BOARD_BASE}/signin` });
    res.end();
  }

  /** All tasks through the services (for the change fingerprint only; never shown). */
  async function allTasks(): Promise<Task[]> {
    const { tasks } = await board.services.tasks.search({ limit: 10_000, offset: 0 });
    return tasks;
  }

  async function signedIn(req: IncomingMessage): Promise<Member | undefined> {
    const id = sessions.memberOf(req);
    const member = id === undefined ? undefined : await board.accounts.activeMember(id);
    return member?.kind === 'person' ? member : undefined;
  }

  function toSignIn(req: IncomingMessage, res: ServerResponse): void {
    const next = req.method === 'GET' ? (req.url ?? BOARD_BASE) : BOARD_BASE;
    res.writeHead(303, {
      ...boardPageHeaders(),
      location: `${BOARD_BASE}/signin?next=${encodeURIComponent(next)}`,
    });
    res.end();
  }

  function signInPage(req: IncomingMessage, res: ServerResponse, next: string, problem?: string) {
    const csrfToken = csrf.issue(req, res, 'board-signin');
    sendBoardPage(
      res,
      'Sign in to Recourse Board',
      undefined,
      html`${problem === undefined ? '' : alertBox(problem, 'signin-error')}
        <form method="post" action="${BOARD_BASE}/signin">
          <input type="hidden" name="next" value="${next}" />
          ${signInFields(csrfToken)}
        </form>
        <p class="muted">
          No password yet? The board owner sets one with
          <code>recourse-board members password --member &lt;id&gt;</code> or prints a one-time link with
          <code>recourse-board members signin-link --member &lt;id&gt;</code>.
        </p>`,
      problem === undefined ? 200 : 401,
    );
  }

  /** Only same-site paths under the board are followed after sign-in. */
  const safeNext = (next: string | null): string =>
    next !== null && next.startsWith(`${BOARD_BASE}`) && !next.startsWith('//') ? next : BOARD_BASE;

  async function postSignIn(req: IncomingMessage, res: ServerResponse) {
    const form = await readForm(req);
    if (!form.ok) return sendBoardPage(res, 'Form refused', undefined, alertBox(form.message), form.status);
    const verdict = csrf.verify(req, form.fields.get(CSRF_FIELD) ?? undefined, 'board-signin');
    const next = safeNext(form.fields.get('next'));
    if (!verdict.ok) return refuseForgery(res, undefined, verdict.reason);
    const member = await board.accounts.signIn(
      form.fields.get('login') ?? '',
      form.fields.get('password') ?? '',
    );
    if (member === undefined) {
      log.info('board page sign-in refused');
      return signInPage(
        req,
        res,
        next,
        'That member id or name and password do not match an active person with a password. Check both and try again.',
      );
    }
    sessions.start(res, member.id);
    log.info({ member: member.id }, 'signed in on the board pages');
    res.writeHead(303, { ...boardPageHeaders(), location: next });
    res.end();
  }

  function refuseForgery(res: ServerResponse, member: Member | undefined, reason: string) {
    log.warn({ reason }, 'board form refused (CSRF)');
    sendBoardPage(
      res,
      'Form refused',
      member,
      alertBox(
        `The form was refused because ${reason}. Nothing was changed. Reload the page and send the form from there.`,
      ),
      403,
    );
  }

  async function showBoard(req: IncomingMessage, res: ServerResponse, member: Member) {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    const filters: BoardFilters = {
      assignee: query.get('assignee') ?? '',
      label: query.get('label') ?? '',
      text: query.get('q') ?? '',
    };
    const args: Record<string, unknown> = { limit: 50 };
    if (filters.assignee !== '') args['assignee'] = filters.assignee;
    if (filters.label !== '') args['label'] = filters.label;
    if (filters.text !== '') args['query'] = filters.text;
    const tasks: Task[] = [];
    let answer: ToolAnswer | undefined;
    for (let page = 0; page < 20; page++) {
      answer = await call(member, 'tasks_search', { ...args, offset: tasks.length });
      if (!answer.ok) break;
      tasks.push(...((answer.data['tasks'] ?? []) as Task[]));
      if (answer.data['nextOffset'] === null) break;
    }
    const members = await board.services.members.list(true);
    const stamp = boardStamp(await allTasks());
    const problem = answer !== undefined && !answer.ok ? alertBox(answer.text) : '';
    sendBoardPage(
      res,
      'Board',
      member,
      html`${problem}${boardView(tasks, members, filters, stamp)}`,
      answer === undefined ? 200 : statusOf(answer),
    );
  }

  const actions = createBoardActions({ call, members: board.services.members, token, send: sendBoardPage });
  const consolePages = createConsolePages({
    callLog: board.callLog,
    members: board.services.members,
    ...(deps.logLines === undefined ? {} : { logLines: deps.logLines }),
  });

  async function routeSignedIn(req: IncomingMessage, res: ServerResponse, path: string, member: Member) {
    const method = req.method ?? 'GET';
    if (method === 'POST') {
      const form = await readForm(req);
      if (!form.ok) return sendBoardPage(res, 'Form refused', member, alertBox(form.message), form.status);
      const verdict = csrf.verify(req, form.fields.get(CSRF_FIELD) ?? undefined, purpose(member));
      if (!verdict.ok) return refuseForgery(res, member, verdict.reason);
      if (await actions.post(req, res, path, member, form.fields)) return;
      return notFound(res, member, path);
    }
    if (method !== 'GET' && method !== 'HEAD')
      return sendBoardPage(
        res,
        'Method not allowed',
        member,
        alertBox(`${method} is not allowed here.`),
        405,
      );
    if (path === BOARD_BASE || path === `${BOARD_BASE}/`) return showBoard(req, res, member);
    if (path === `${BOARD_BASE}/changes`) {
      const body = JSON.stringify({ stamp: boardStamp(await allTasks()) });
      res.writeHead(200, { ...boardPageHeaders(), 'content-type': 'application/json' });
      return void res.end(body);
    }
    if (path === `${BOARD_BASE}/new`)
      return sendBoardPage(res, 'New task', member, newTaskView(token(req, res, member)));
    if (path === `${BOARD_BASE}/members`)
      return sendBoardPage(res, 'Members', member, membersView(await board.services.members.list(true)));
    if (await actions.get(req, res, path, member)) return;
    if (await consolePages.handle(req, res, path, member)) return;
    return notFound(res, member, path);
  }

  function notFound(res: ServerResponse, member: Member, path: string) {
    sendBoardPage(
      res,
      'Page not found',
      member,
      alertBox(`There is no board page at ${path}. Go back to the board.`),
      404,
    );
  }

  return {
    /** Serves `/board…`; resolves false for any other path. */
    async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
      if (path !== BOARD_BASE && !path.startsWith(`${BOARD_BASE}/`)) return false;
      if (path.startsWith(`${BOARD_BASE}/assets/`)) {
        if (!sendAsset(res, path.slice(`${BOARD_BASE}/assets/`.length))) {
          res.writeHead(404, boardPageHeaders());
          res.end();
        }
        return true;
      }
      if (path === `${BOARD_BASE}/signin`) {
        if (req.method === 'POST') await postSignIn(req, res);
        else signInPage(req, res, safeNext(new URL(req.url ?? '/', 'http://x').searchParams.get('next')));
        return true;
      }
      if (path === `${BOARD_BASE}/signout`) {
        await signOut(req, res);
        return true;
      }
      const member = await signedIn(req);
      if (member === undefined) {
        if (req.method === 'POST') {
          req.resume();
          sendBoardPage(
            res,
            'Not signed in',
            undefined,
            alertBox('You are not signed in, so nothing was changed. Sign in and send the form again.'),
            401,
          );
        } else toSignIn(req, res);
        return true;
      }
      await routeSignedIn(req, res, path, member);
      return true;
    },
  };
}
