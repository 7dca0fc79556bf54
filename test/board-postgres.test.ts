/**
 * Two board instances on one PostgreSQL database, each behind its own HTTP host, as behind a load balancer:
 * tasks, idempotency records, rate limits and the call log are shared; the CLI works on DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { startHttpHost, type HttpHost } from '@recourse/server';
import { createPgBoardServer, type PgBoardServer } from '../apps/board/src/board-server.pg.ts';
import { runCli } from '../apps/board/src/cli/main.ts';
import { captureIo } from '../apps/board/src/cli/cli-testing.ts';
import { startTempPostgres, type TempPostgres } from './support/temp-postgres.ts';
import { failureMetaOf } from '../apps/board/src/testing/board-host.ts';

let postgres: TempPostgres;
let databaseUrl: string;
const instances: { board: PgBoardServer; host: HttpHost }[] = [];
let token: string;

beforeAll(async () => {
  postgres = await startTempPostgres();
  databaseUrl = await postgres.freshDatabaseUrl();
  for (let i = 0; i < 2; i += 1) {
    const board = await createPgBoardServer({
      databaseUrl,
      logger: pino({ level: 'silent' }),
      rateLimit: { defaultPerMinute: 8 },
    });
    const host = await startHttpHost({
      factory: board.server.createMcpServer,
      canceller: board.server.inflight,
      verifier: board.verifier,
      flood: false,
    });
    instances.push({ board, host });
  }
  const first = instances[0]!.board.services;
  const member = await first.members.add({ name: 'Pat', kind: 'assistant', role: 'maintainer' });
  token = (await first.tokens.create(member.id)).token;
});
afterAll(async () => {
  for (const { board, host } of instances) {
    await host.close();
    await board.close();
  }
  await postgres.stop();
});

async function connect(url: string): Promise<Client> {
  const client = new Client(
    { name: 'pg-e2e', version: '0.0.1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

describe('board on PostgreSQL, two instances', () => {
  it('share tasks, idempotency records, rate limits and the call log', async () => {
    const a = await connect(instances[0]!.host.url);
    const b = await connect(instances[1]!.host.url);
    try {
      const args = { title: 'Shared across instances', idempotencyKey: 'pg-shared-0001' };
      const created = await a.callTool({ name: 'tasks_create', arguments: args });
      const ref = (created.structuredContent as { task: { ref: string } }).task.ref;
      expect((await b.callTool({ name: 'tasks_get', arguments: { ref } })).structuredContent).toMatchObject({
        task: { ref, title: 'Shared across instances', version: 1 },
      });
      const replay = await b.callTool({ name: 'tasks_create', arguments: args });
      expect((replay.structuredContent as { task: { ref: string } }).task.ref).toBe(ref);
      expect(await instances[1]!.board.services.store.countTasks()).toBe(1);

      const moved = await b.callTool({ name: 'tasks_move', arguments: { ref, status: 'doing' } });
      expect(moved.structuredContent).toMatchObject({ task: { status: 'doing', version: 2 } });
      const stale = await a.callTool({
        name: 'tasks_update',
        arguments: { ref, expectedVersion: 1, title: 'x' },
      });
      expect(failureMetaOf(stale)).toMatchObject({ category: 'conflict', code: 'VERSION_CONFLICT' });

      // 5 calls so far on the member's budget of 8: three more pass, the ninth is refused, on either instance.
      expect((await a.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
      expect((await b.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
      expect((await b.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
      const refused = await a.callTool({ name: 'whoami', arguments: {} });
      expect(failureMetaOf(refused)).toMatchObject({ category: 'rate_limit', retryable: true });

      const log = await instances[1]!.board.callLog.recent({ limit: 20 });
      expect(log.map((e) => e.tool)).toEqual(
        expect.arrayContaining(['tasks_create', 'tasks_get', 'tasks_move', 'tasks_update', 'whoami']),
      );
      expect(log[0]).toMatchObject({ tool: 'whoami', outcome: 'rate_limit' });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('is managed by the CLI through DATABASE_URL', async () => {
    const io = captureIo({ DATABASE_URL: databaseUrl });
    expect(await runCli(['members', 'list'], io)).toBe(0);
    expect(io.outLines.join('\n')).toContain('Pat');
    const log = captureIo({ DATABASE_URL: databaseUrl });
    expect(await runCli(['log', '--tool', 'tasks_move'], log)).toBe(0);
    expect(log.outLines[1]).toMatch(/\ttasks_move\tok\t-\t\d+ms\tc_/);
  });
});
