/**
 * The failure console, for owners and maintainers: the call log filtered by member, tool, outcome and time, with
 * counts and a failure-rate chart per tool and per member; an assistant's session (one member's calls in time
 * order, marking each failure and whether a later call recovered); and, for owners only, the lookup of one call
 * by correlation id with what the server logged for it (message, level, code; never error details or stacks).
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FAILURE_CATEGORIES } from '@recourse/core';
import type { CallLogEntry } from '@recourse/server';
import type { BoardCallLog } from '../kit/call-log.ts';
import type { Member } from '../domain/member.ts';
import type { MemberService } from '../services/member-service.ts';
import { html, type SafeHtml } from '../pages/index.ts';
import { failureChart, failureSeries } from './failure-chart.ts';
import { alertBox, BOARD_BASE, sendBoardPage } from './web-layout.ts';

/** What the console needs. */
export interface ConsoleDeps {
  readonly callLog: BoardCallLog;
  readonly members: MemberService;
  readonly logLines?: (correlationId: string) => readonly Record<string, unknown>[];
}

/** How many log entries the console reads at most. */
export const CONSOLE_MAX_ENTRIES = 5000;
const BASE = `${BOARD_BASE}/console`;
/** The log fields the lookup shows; everything else (errors, stacks, arguments) stays in the server's log. */
const SHOWN_LOG_FIELDS = ['time', 'level', 'msg', 'tool', 'code', 'principalId', 'changed'] as const;

interface Filters {
  member: string;
  tool: string;
  outcome: string;
  since: string;
  until: string;
}

function readFilters(req: IncomingMessage): Filters {
  const q = new URL(req.url ?? '/', 'http://x').searchParams;
  const get = (name: string) => (q.get(name) ?? '').trim();
  return {
    member: get('member'),
    tool: get('tool'),
    outcome: get('outcome'),
    since: get('since'),
    until: get('until'),
  };
}

/** Parses a filter time (ISO 8601 or `datetime-local`, read as UTC); NaN when empty or invalid. */
const timeOf = (text: string): number =>
  text === '' ? NaN : Date.parse(/Z|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);

/** A path segment decoded, or as sent when it is not valid percent-encoding. */
function decodePath(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Creates the console pages. */
export function createConsolePages(deps: ConsoleDeps) {
  async function entries(filters: Filters): Promise<CallLogEntry[]> {
    const all = await deps.callLog.recent({
      limit: CONSOLE_MAX_ENTRIES,
      ...(filters.member === '' ? {} : { memberId: filters.member }),
      ...(filters.tool === '' ? {} : { tool: filters.tool }),
    });
    const since = timeOf(filters.since);
    const until = timeOf(filters.until);
    return all
      .filter(
        (e) =>
          filters.outcome === '' ||
          e.outcome === filters.outcome ||
          (filters.outcome === 'failed' && e.outcome !== 'ok'),
      )
      .filter((e) => Number.isNaN(since) || Date.parse(e.at) >= since)
      .filter((e) => Number.isNaN(until) || Date.parse(e.at) <= until)
      .reverse(); // oldest first
  }

  function filterForm(filters: Filters, members: readonly Member[], tools: readonly string[]): SafeHtml {
    const select = (name: string, label: string, current: string, options: [string, string][]) =>
      html`<div>
        <label for="k-${name}">${label}</label>
        <select id="k-${name}" name="${name}">
          <option value="">All</option>
          ${options.map(([value, text]) => html`<option value="${value}" ${value === current ? html`selected` : ''}>${text}</option>`)}
        </select>
      </div>`;
    return html`<form class="filters" method="get" action="${BASE}" role="search">
      ${select(
        'member',
        'Member',
        filters.member,
        members.map((m) => [m.id, `${m.name} (${m.kind})`]),
      )}
      ${select(
        'tool',
        'Tool',
        filters.tool,
        tools.map((t) => [t, t]),
      )}
      ${select('outcome', 'Outcome', filters.outcome, [['ok', 'ok'], ['failed', 'any failure'], ...FAILURE_CATEGORIES.map((c): [string, string] => [c, c])])}
      <div>
        <label for="k-since">From (UTC)</label
        ><input id="k-since" name="since" type="datetime-local" step="1" value="${filters.since}" />
      </div>
      <div>
        <label for="k-until">To (UTC)</label
        ><input id="k-until" name="until" type="datetime-local" step="1" value="${filters.until}" />
      </div>
      <div><button type="submit">Filter</button></div>
    </form>`;
  }

  const nameOf = (members: readonly Member[], id: string | null) =>
    id === null ? 'nobody' : (members.find((m) => m.id === id)?.name ?? id);

  function callTable(
    list: readonly CallLogEntry[],
    members: readonly Member[],
    viewer: Member,
    id: string,
    recovery = false,
  ): SafeHtml {
    return html`<table id="${id}">
      <caption class="sr-only">
        Tool calls, oldest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Time (UTC)</th>
          <th scope="col">Member</th>
          <th scope="col">Tool</th>
          <th scope="col">Outcome</th>
          <th scope="col">Code</th>
          <th scope="col">ms</th>
          <th scope="col">Correlation id</th>
          ${recovery ? html`<th scope="col">Recovery</th>` : ''}
        </tr>
      </thead>
      <tbody>
        ${list.map((e, i) => {
          const recovered =
            recovery && e.outcome !== 'ok'
              ? list.slice(i + 1).find((later) => later.outcome === 'ok')
              : undefined;
          const note = !recovery
            ? ''
            : e.outcome === 'ok'
              ? html`<td></td>`
              : html`<td>
                  ${recovered === undefined ? 'not recovered' : `recovered by ${recovered.tool}`}
                </td>`;
          return html`<tr data-outcome="${e.outcome}" data-tool="${e.tool}">
            <td>${e.at}</td>
            <td>${nameOf(members, e.principalId)}</td>
            <td>${e.tool}</td>
            <td class="${e.outcome === 'ok' ? 'outcome-ok' : 'outcome-fail'}">${e.outcome}</td>
            <td>${e.code ?? ''}</td>
            <td>${e.durationMs}</td>
            <td>
              ${viewer.role === 'owner' ? html`<a href="${BASE}/calls/${e.correlationId}">${e.correlationId}</a>` : e.correlationId}
            </td>
            ${note}
          </tr>`;
        })}
      </tbody>
    </table>`;
  }

  function counts(list: readonly CallLogEntry[]): SafeHtml {
    const by = new Map<string, number>();
    for (const e of list) by.set(e.outcome, (by.get(e.outcome) ?? 0) + 1);
    return html`<ul id="outcome-counts">
      ${[...by.entries()].sort().map(([outcome, n]) => html`<li data-outcome="${outcome}">${outcome}: <span class="count">${n}</span></li>`)}
    </ul>`;
  }

  function charts(list: readonly CallLogEntry[], members: readonly Member[]): SafeHtml {
    if (list.length === 0) return html``;
    const from = Date.parse(list[0]?.at ?? '');
    const to = Date.parse(list.at(-1)?.at ?? '');
    const group = (key: (e: CallLogEntry) => string, label: (k: string) => string, prefix: string) =>
      [...new Set(list.map(key))].sort().map((k, i) =>
        failureChart(
          label(k),
          failureSeries(
            list.filter((e) => key(e) === k),
            from,
            to,
          ),
          `${prefix}-${i}`,
        ),
      );
    return html`<h2>Failure rate per tool</h2>
      <div class="charts">
        ${group(
          (e) => e.tool,
          (k) => `tool ${k}`,
          'chart-tool',
        )}
      </div>
      <h2>Failure rate per member</h2>
      <div class="charts">
        ${group(
          (e) => e.principalId ?? 'nobody',
          (k) => `member ${nameOf(members, k)}`,
          'chart-member',
        )}
      </div>`;
  }

  async function overview(req: IncomingMessage, res: ServerResponse, viewer: Member) {
    const filters = readFilters(req);
    const members = await deps.members.list();
    const list = await entries(filters);
    const tools = [
      ...new Set((await deps.callLog.recent({ limit: CONSOLE_MAX_ENTRIES })).map((e) => e.tool)),
    ].sort();
    const sessionLink =
      filters.member === ''
        ? ''
        : html`<p>
            <a href="${BASE}/session?member=${filters.member}"
              >Session view of ${nameOf(members, filters.member)}</a
            >
          </p>`;
    sendBoardPage(
      res,
      'Failure console',
      viewer,
      html`${filterForm(filters, members, tools)} ${lookupForm(viewer)} ${sessionLink}
        <h2>Outcomes (${list.length} calls)</h2>
        ${counts(list)} ${charts(list, members)}
        <h2>Calls</h2>
        ${callTable(list, members, viewer, 'calls')}`,
    );
  }

  function lookupForm(viewer: Member): SafeHtml {
    if (viewer.role !== 'owner') return html``;
    return html`<form method="get" action="${BASE}/calls" role="search">
      <label for="k-correlation">Look up a correlation id</label>
      <input id="k-correlation" name="id" />
      <button type="submit">Look up</button>
    </form>`;
  }

  async function session(req: IncomingMessage, res: ServerResponse, viewer: Member) {
    const filters = readFilters(req);
    const members = await deps.members.list();
    if (filters.member === '')
      return sendBoardPage(
        res,
        'Session',
        viewer,
        alertBox('Choose a member: add ?member=<member id> (the console links each).'),
        400,
      );
    const list = await entries(filters);
    sendBoardPage(
      res,
      `Session of ${nameOf(members, filters.member)}`,
      viewer,
      html`<p>Every call of this member in time order; a failure shows whether a later call succeeded.</p>
        ${counts(list)} ${callTable(list, members, viewer, 'session', true)}`,
    );
  }

  async function lookup(res: ServerResponse, viewer: Member, id: string) {
    if (viewer.role !== 'owner')
      return sendBoardPage(
        res,
        'Call lookup',
        viewer,
        alertBox(`Only owners can look up calls; your role is ${viewer.role}.`),
        403,
      );
    const members = await deps.members.list();
    const entry = (await deps.callLog.recent({ limit: CONSOLE_MAX_ENTRIES })).find(
      (e) => e.correlationId === id,
    );
    if (entry === undefined)
      return sendBoardPage(
        res,
        'Call lookup',
        viewer,
        alertBox(
          `No call with correlation id "${id}" is in the last ${CONSOLE_MAX_ENTRIES} calls of the log. Check the id (it is quoted in the failure text the model got).`,
        ),
        404,
      );
    const lines = (deps.logLines?.(id) ?? []).map((line) =>
      Object.fromEntries(
        SHOWN_LOG_FIELDS.filter((k) => line[k] !== undefined).map((k) => [k, String(line[k])]),
      ),
    );
    sendBoardPage(
      res,
      `Call ${id}`,
      viewer,
      html`${callTable([entry], members, viewer, 'call')}
        <h2>What the server logged</h2>
        ${
          lines.length === 0
            ? html`<p>No log lines for this call are kept in this process (the server's log has them).</p>`
            : html`<ul id="log-lines">
                ${lines.map(
                  (l) =>
                    html`<li>
                      ${Object.entries(l)
                        .map(([k, v]) => `${k}=${v}`)
                        .join(' ')}
                    </li>`,
                )}
              </ul>`
        }`,
    );
  }

  return {
    /** Serves `/board/console…`; false for other paths. */
    async handle(req: IncomingMessage, res: ServerResponse, path: string, viewer: Member): Promise<boolean> {
      if (path !== BASE && !path.startsWith(`${BASE}/`)) return false;
      if (viewer.role !== 'owner' && viewer.role !== 'maintainer') {
        sendBoardPage(
          res,
          'Failure console',
          viewer,
          alertBox(
            `The failure console is for owners and maintainers; your role is ${viewer.role}. Nothing is shown.`,
          ),
          403,
        );
        return true;
      }
      if (path === BASE) await overview(req, res, viewer);
      else if (path === `${BASE}/session`) await session(req, res, viewer);
      else if (path === `${BASE}/calls`)
        await lookup(res, viewer, new URL(req.url ?? '/', 'http://x').searchParams.get('id')?.trim() ?? '');
      else if (path.startsWith(`${BASE}/calls/`))
        await lookup(res, viewer, decodePath(path.slice(`${BASE}/calls/`.length)));
      else return false;
      return true;
    },
  };
}
