/**
 * The category guesser and the unknown-tool recognition against real failure texts: every text here is produced
 * live by a real server, never written down. The v1 SDK and fastmcp servers run real failing operations
 * (`fails_like`: refused and reset connections, DNS misses, timeouts, a locked SQLite database, node-postgres losing its connection,
 * upstream HTTP status texts, zod and JSON errors…) and their own validation, timeout and unknown-tool paths;
 * the board's failures carry their category in `_meta`, which is the expected answer for their bare text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFailure, guessCategory } from '@recourse/core';
import type { FailureCategory } from '@recourse/core';
import { createRecourseClient, isRecourseCallError } from '@recourse/client';
import type { RecourseCallError, RecourseClient } from '@recourse/client';
import { startTestBoard } from '../../apps/board/src/testing/board-host.ts';
import type { TestBoard } from '../../apps/board/src/testing/board-host.ts';
import { startInteropServer } from './interop-servers.ts';
import type { FailureCase } from './real-failures.ts';

/** What a model or an operator should take each real failure for. */
const EXPECTED: Record<FailureCase, FailureCategory> = {
  connect_refused: 'transient',
  fetch_refused: 'transient',
  connection_reset: 'transient',
  socket_hang_up: 'transient',
  dns_not_found: 'transient',
  fetch_timeout: 'transient',
  pg_terminated: 'transient',
  sqlite_locked: 'transient',
  sqlite_unique: 'conflict',
  file_missing: 'not_found',
  type_error: 'internal',
  json_syntax: 'validation',
  zod_enum: 'validation',
  zod_missing: 'validation',
  upstream_429: 'rate_limit',
  upstream_502: 'transient',
  upstream_503: 'transient',
  upstream_504: 'transient',
  upstream_403: 'permission',
  upstream_404: 'not_found',
  upstream_409: 'conflict',
};

/** One real failure: where it came from, its text, and what it should be read as. */
interface Row {
  readonly source: string;
  readonly text: string;
  readonly expected: FailureCategory | 'unknown_tool';
  readonly error: RecourseCallError;
}

const rows: Row[] = [];

async function failure(
  client: RecourseClient,
  tool: string,
  args: Record<string, unknown>,
): Promise<RecourseCallError> {
  try {
    await client.callTool(tool, args);
  } catch (error) {
    if (isRecourseCallError(error)) return error;
    throw error;
  }
  throw new Error(`${tool} ${JSON.stringify(args)} succeeded on ${client.name}`);
}

/** The text a client without Recourse's `_meta` reads: the `isError` text, or the JSON-RPC error message. */
function textOf(error: RecourseCallError): string {
  if (error.kind === 'tool') return error.message;
  if (error.kind === 'protocol' && error.cause instanceof Error) return error.cause.message;
  return error.message;
}

async function collectForeign(kind: 'v1' | 'fastmcp'): Promise<void> {
  const server = await startInteropServer(kind, 'stdio');
  const client = createRecourseClient({
    target: server.target,
    name: kind,
    retry: { maxAttempts: 1 },
    breaker: false,
    timeoutMs: 20_000,
  });
  const add = async (
    label: string,
    tool: string,
    args: Record<string, unknown>,
    expected: Row['expected'],
  ) => {
    const error = await failure(client, tool, args);
    rows.push({ source: `${kind} ${label}`, text: textOf(error), expected, error });
  };
  try {
    for (const [how, expected] of Object.entries(EXPECTED)) await add(how, 'fails_like', { how }, expected);
    await add('unknown tool', 'no_such_tool', {}, 'unknown_tool');
    await add('wrong argument type', 'slow', { ms: 'soon', tag: 'x' }, 'validation');
    await add('missing arguments', 'slow', {}, 'validation');
    await add('thrown Error', 'throwing', { message: 'boom' }, 'internal');
    if (kind === 'fastmcp')
      await add('its own timeoutMs', 'slow_capped', { ms: 2_000, tag: 'capped' }, 'transient');
  } finally {
    await client.close();
    await server.stop();
  }
}

async function collectBoard(): Promise<void> {
  const board: TestBoard = await startTestBoard({ rateLimit: { defaultPerMinute: 30 } });
  const as = (role: keyof TestBoard['tokens']): RecourseClient =>
    createRecourseClient({
      target: { url: board.url, token: board.tokens[role] },
      name: `board-${role}`,
      retry: { maxAttempts: 1 },
      breaker: false,
    });
  const owner = as('owner');
  const viewer = as('viewer');
  const contributor = as('contributor');
  const add = async (label: string, client: RecourseClient, tool: string, args: Record<string, unknown>) => {
    const error = await failure(client, tool, args);
    const meta = error.kind === 'tool' ? decodeFailure(error.result) : undefined;
    const expected = error.kind === 'protocol' && error.unknownTool ? 'unknown_tool' : meta?.category;
    if (expected === undefined) throw new Error(`board ${label} sent no category: ${error.message}`);
    rows.push({ source: `board ${label}`, text: textOf(error), expected, error });
  };
  try {
    const created = await owner.callTool('tasks_create', { title: 'Failure texts' });
    const ref = /T-\d+/.exec(JSON.stringify(created.result))?.[0] ?? 'T-1';
    await add('missing task', owner, 'tasks_get', { ref: 'T-9999' });
    await add('malformed ref', owner, 'tasks_get', { ref: 'task nine' });
    await add('unknown argument', owner, 'tasks_create', { title: 'x', colour: 'red' });
    await add('missing title', owner, 'tasks_create', {});
    await add('bad status', owner, 'tasks_move', { ref, status: 'finished' });
    await add('viewer creates', viewer, 'tasks_create', { title: 'not mine to add' });
    await add('contributor deletes', contributor, 'tasks_delete', { ref });
    await add('stale version', owner, 'tasks_update', { ref, expectedVersion: 99, title: 'late' });
    await add('unknown tool', owner, 'tasks_archive', { ref });
    let limited: RecourseCallError | undefined;
    for (let i = 0; i < 40 && limited === undefined; i++) {
      const outcome = await viewer.tryCallTool('tasks_search', { query: 'failure' });
      if (!outcome.ok) limited = outcome.error;
    }
    if (limited) {
      const meta = limited.kind === 'tool' ? decodeFailure(limited.result) : undefined;
      rows.push({
        source: 'board rate limit',
        text: textOf(limited),
        expected: meta?.category ?? 'rate_limit',
        error: limited,
      });
    }
  } finally {
    await Promise.all([owner.close(), viewer.close(), contributor.close()]);
    await board.close();
  }
}

beforeAll(async () => {
  await collectForeign('v1');
  await collectForeign('fastmcp');
  await collectBoard();
}, 180_000);

afterAll(() => {
  rows.length = 0;
});

describe('real failure texts from the v1 SDK, fastmcp and the board', () => {
  it('collects at least 50 of them, from all three', () => {
    expect(rows.length).toBeGreaterThanOrEqual(50);
    for (const source of ['v1 ', 'fastmcp ', 'board ']) {
      expect(rows.some((r) => r.source.startsWith(source))).toBe(true);
    }
  });

  it('guesses the category of each from its text alone', () => {
    const wrong = rows
      .filter((r) => r.expected !== 'unknown_tool' && guessCategory(r.text) !== r.expected)
      .map((r) => `${r.source}: guessed ${guessCategory(r.text)}, expected ${r.expected}: ${r.text}`);
    expect(wrong).toEqual([]);
  });

  it('gives the client the same category for every foreign tool failure', () => {
    const wrong = rows
      .filter(
        (r) => r.error.kind === 'tool' && r.expected !== 'unknown_tool' && r.error.category !== r.expected,
      )
      .map((r) => `${r.source}: ${r.error.kind === 'tool' ? r.error.category : ''} ≠ ${r.expected}`);
    expect(wrong).toEqual([]);
  });

  it('turns every unknown-tool shape (v1 isError, fastmcp -32601, the board -32602) into one failure', () => {
    const unknown = rows.filter((r) => r.expected === 'unknown_tool');
    expect(unknown.map((r) => r.source).sort()).toEqual([
      'board unknown tool',
      'fastmcp unknown tool',
      'v1 unknown tool',
    ]);
    for (const row of unknown) {
      expect(row.error).toMatchObject({ kind: 'protocol', rpcCode: -32602, unknownTool: true });
      expect(row.error.message).toMatch(/tools\/list/);
    }
  });
});
