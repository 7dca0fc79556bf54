/**
 * Renders the outcome of `recourse call` for people (text) or programs (`--json`).
 *
 * @packageDocumentation
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { AttemptRecord } from '../attempt-log.ts';
import type { RecourseCallError } from '../errors.ts';
import type { CallSuccess } from '../client-options.ts';

function resultText(result: CallToolResult): string {
  const lines = result.content.map((block) =>
    block.type === 'text' ? block.text : `[${block.type} content]`,
  );
  if (result.structuredContent !== undefined) lines.push(JSON.stringify(result.structuredContent, null, 2));
  return lines.join('\n');
}

/** One line per attempt: number, outcome, code, duration and the wait before it. */
export function renderAttempts(attempts: readonly AttemptRecord[]): string {
  if (attempts.length === 0) return 'attempts: none (nothing was sent)';
  return attempts
    .map((a) => {
      const code = a.code === undefined ? '' : ` ${a.code}`;
      const category = a.category === undefined ? '' : ` (${a.category})`;
      const wait = a.waitBeforeMs > 0 ? ` after waiting ${a.waitBeforeMs} ms` : '';
      const version = a.protocolVersion === undefined ? '' : ` [${a.protocolVersion}]`;
      return `attempt ${a.attempt}: ${a.outcome}${code}${category} in ${a.durationMs} ms${wait}${version}`;
    })
    .join('\n');
}

/** Describes a failure in one heading line plus its text. */
export function failureHeading(error: RecourseCallError): string {
  if (error.kind === 'tool') {
    const { category, failure } = error;
    return `tool failure: ${category}${failure ? ` ${failure.code}` : ' (category guessed; the server sent no failure data)'}`;
  }
  if (error.kind === 'protocol') {
    const { rpcCode, httpStatus } = error;
    return `protocol error ${rpcCode}${httpStatus === undefined ? '' : ` (HTTP ${httpStatus})`}`;
  }
  return `local failure: ${error.reason}`;
}

/** Text for a success (stdout). */
export function renderSuccess(success: CallSuccess): string {
  const rerouted = success.reroutedFrom
    ? `rerouted from ${success.reroutedFrom.tool}: its breaker is open\n`
    : '';
  return `${rerouted}${resultText(success.result)}\n`;
}

/** Text for a failure (stderr). */
export function renderFailure(error: RecourseCallError): string {
  return `${failureHeading(error)}\n${error.message}\n${renderAttempts(error.attempts)}\n`;
}

/** JSON for `--json` (stdout), for both outcomes. */
export function renderJson(
  outcome: { ok: true; value: CallSuccess } | { ok: false; error: RecourseCallError },
): string {
  if (outcome.ok) {
    const { result, server, tool, attempts, reroutedFrom } = outcome.value;
    return `${JSON.stringify({ ok: true, server, tool, result, attempts, ...(reroutedFrom ? { reroutedFrom } : {}) }, null, 2)}\n`;
  }
  const e = outcome.error;
  const fields: Record<string, unknown> =
    e.kind === 'tool'
      ? { category: e.category, failure: e.failure }
      : e.kind === 'protocol'
        ? { rpcCode: e.rpcCode, data: e.data, httpStatus: e.httpStatus }
        : { httpStatus: e.httpStatus, reason: e.reason, mayHaveReachedServer: e.mayHaveReachedServer };
  const error: Record<string, unknown> = { kind: e.kind, code: e.code, message: e.message };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) error[key] = value;
  return `${JSON.stringify({ ok: false, server: e.server, tool: e.tool, error, attempts: e.attempts }, null, 2)}\n`;
}
