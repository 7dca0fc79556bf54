/**
 * Health and graceful drain of the real `recourse-board serve` on PostgreSQL, over real HTTP: `/healthz` and
 * `/readyz`, then SIGTERM while calls are running (held up by a row lock the test takes on the task counter):
 * `/readyz` turns 503 while the listener still answers, new requests get 503 with `Retry-After` and a JSON-RPC
 * body, running calls finish (or, past the drain timeout, are cancelled with a result that says nothing
 * changed), and the process exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTempPostgres, type TempPostgres } from './support/temp-postgres.ts';
import { startServeInstance, type ServeInstance } from '../apps/board/src/testing/serve-instance.ts';
import { failureMetaOf } from '../apps/board/src/testing/board-host.ts';

const METRICS_TOKEN = 'drain-test-metrics-token-0123456789';
let postgres: TempPostgres;

beforeAll(async () => {
  postgres = await startTempPostgres();
});
afterAll(async () => {
  await postgres.stop();
});

async function connect(board: ServeInstance, token: string): Promise<Client> {
  const client = new Client(
    { name: 'drain-test', version: '0.0.1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(board.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

async function probe(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function inFlight(board: ServeInstance): Promise<number> {
  const response = await fetch(`${board.origin}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const match = /^recourse_tool_calls_in_flight (\d+)$/m.exec(await response.text());
  return Number(match?.[1] ?? Number.NaN);
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (let i = 0; i < 400 && Date.now() < until; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** A session holding the row lock every `tasks_create` needs, so that creates wait until it is released. */
async function holdCreateLock(databaseUrl: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query("SELECT value FROM counters WHERE name = 'task' FOR UPDATE");
  return {
    async release() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

async function countTasks(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT COUNT(*) AS n FROM tasks');
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

interface Outcome {
  readonly transportError?: string;
  readonly isError?: boolean;
  readonly code?: string;
  readonly changed?: unknown;
  readonly text?: string;
}

async function createTask(client: Client, key: string): Promise<Outcome> {
  try {
    const result = await client.callTool(
      { name: 'tasks_create', arguments: { title: `Drain ${key}`, idempotencyKey: key } },
      { timeout: 60_000 },
    );
    const meta = failureMetaOf(result);
    const text = (result.content as { type: string; text?: string }[])[0]?.text ?? '';
    const code = typeof meta?.['code'] === 'string' ? meta['code'] : undefined;
    return {
      isError: result.isError === true,
      ...(code === undefined ? {} : { code }),
      changed: meta?.['changed'],
      text,
    };
  } catch (error) {
    return { transportError: error instanceof Error ? error.message : String(error) };
  }
}

/** Starts a board on a fresh database and connects a client with its owner token. */
async function startBoard(
  drainTimeout: string,
): Promise<{ board: ServeInstance; client: Client; databaseUrl: string }> {
  const databaseUrl = await postgres.freshDatabaseUrl();
  const board = await startServeInstance({
    args: ['--port', '0', '--drain-timeout', drainTimeout, '--metrics-token', METRICS_TOKEN],
    env: { DATABASE_URL: databaseUrl },
  });
  const token = board.ownerToken;
  if (token === undefined) throw new Error('no owner token printed');
  return { board, client: await connect(board, token), databaseUrl };
}

async function refusedWhileDraining(board: ServeInstance, token: string): Promise<void> {
  const response = await fetch(board.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'late-1', method: 'tools/list', params: {} }),
  });
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('1');
  const body = (await response.json()) as {
    jsonrpc: string;
    id: unknown;
    error: { code: number; message: string };
  };
  expect(body).toMatchObject({ jsonrpc: '2.0', id: 'late-1', error: { code: -31503 } });
  expect(body.error.message).toContain('shutting down');
  expect(body.error.message).toContain('Nothing was changed');
}

describe('recourse-board serve: health and drain on SIGTERM', () => {
  it('answers /healthz and /readyz, and /metrics only with its token', async () => {
    const { board, client } = await startBoard('5s');
    try {
      expect(await probe(`${board.origin}/healthz`)).toEqual({
        status: 200,
        body: { status: 'ok', draining: false },
      });
      expect(await probe(`${board.origin}/readyz`)).toEqual({
        status: 200,
        body: { status: 'ready', checks: { draining: 'no', database: 'ok' } },
      });
      const anonymous = await fetch(`${board.origin}/metrics`);
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { error: { code: number } }).error.code).toBe(-31401);
      expect(await inFlight(board)).toBe(0);
    } finally {
      await client.close();
      board.child.kill('SIGTERM');
      expect((await board.exited).code).toBe(0);
    }
  });

  it('lets running calls finish: /readyz 503 and new requests 503 while draining, no transport error, exit 0', async () => {
    const { board, client, databaseUrl } = await startBoard('20s');
    const lock = await holdCreateLock(databaseUrl);
    let released = false;
    try {
      const running = ['a', 'b', 'c', 'd'].map((k) => createTask(client, `drain-finish-${k}`));
      await waitUntil('four calls are in flight', async () => (await inFlight(board)) === 4);
      board.child.kill('SIGTERM');
      await waitUntil(
        '/readyz answers 503',
        async () => (await probe(`${board.origin}/readyz`)).status === 503,
      );
      expect((await probe(`${board.origin}/readyz`)).body).toMatchObject({
        status: 'unready',
        checks: { draining: 'yes' },
      });
      expect((await probe(`${board.origin}/healthz`)).body).toEqual({ status: 'ok', draining: true });
      await refusedWhileDraining(board, board.ownerToken ?? '');
      await lock.release();
      released = true;
      const outcomes = await Promise.all(running);
      expect(outcomes.filter((o) => o.transportError !== undefined)).toEqual([]);
      expect(outcomes.map((o) => o.isError)).toEqual([false, false, false, false]);
      expect(await board.exited).toEqual({ code: 0, signal: null });
      expect(board.stderr()).toContain('all finished');
      expect(await countTasks(databaseUrl)).toBe(4);
    } finally {
      if (!released) await lock.release();
      await client.close();
      if (board.child.exitCode === null) board.child.kill('SIGKILL');
    }
  });

  it('cancels calls still running at the drain timeout with a result saying nothing changed, then exits 0', async () => {
    const { board, client, databaseUrl } = await startBoard('1s');
    const lock = await holdCreateLock(databaseUrl);
    let released = false;
    try {
      const running = ['a', 'b'].map((k) => createTask(client, `drain-cancel-${k}`));
      await waitUntil('two calls are in flight', async () => (await inFlight(board)) === 2);
      board.child.kill('SIGTERM');
      const outcomes = await Promise.all(running);
      expect(outcomes.filter((o) => o.transportError !== undefined)).toEqual([]);
      for (const outcome of outcomes) {
        expect(outcome).toMatchObject({ isError: true, code: 'CALL_CANCELLED', changed: false });
        expect(outcome.text).toContain('shutting down');
        expect(outcome.text).toContain('same idempotencyKey');
      }
      await lock.release();
      released = true;
      expect(await board.exited).toEqual({ code: 0, signal: null });
      expect(board.stderr()).toContain('2 call(s) cancelled');
      expect(await countTasks(databaseUrl)).toBe(0);
    } finally {
      if (!released) await lock.release();
      await client.close();
      if (board.child.exitCode === null) board.child.kill('SIGKILL');
    }
  });
});
