/**
 * Tasks shared by two board instances on one PostgreSQL database: one instance is the real `recourse-board serve`
 * process, the other runs in this process. A task started on one is polled to completion through the other, and
 * a task whose instance is killed (SIGKILL) reads `failed` with a clear message within the instance's lease.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { SerializedTaskReference } from '@modelcontextprotocol/ext-tasks/client';
import { startHttpHost, type HttpHost } from '@recourse/server';
import { createPgBoardServer, type PgBoardServer } from '../apps/board/src/board-server.pg.ts';
import { localWriteContext } from '../apps/board/src/services/write-context.ts';
import { principalOf } from '../apps/board/src/testing/board-fixture.ts';
import { CLI_ENV, startServe, type ServeProcess } from '../apps/board/src/testing/serve-process.ts';
import { openTaskSession } from './support/task-session.ts';
import { wireCaller } from './support/tasks-wire.ts';
import { startSilentSource, type SilentSource } from './support/silent-source.ts';
import { startTempPostgres, type TempPostgres } from './support/temp-postgres.ts';

const LEASE_MS = 2000;
const SEEDED = 1500;
const ENDPOINT = 'recourse-test:board-behind-a-balancer';

let postgres: TempPostgres;
let databaseUrl: string;
let local: PgBoardServer;
let localHost: HttpHost;
let token: string;
let dataDir: string;
const started: ServeProcess[] = [];
let silent: SilentSource;
let silentUrl: string;

function serve(): Promise<ServeProcess> {
  return startServe(dataDir, false, ['--task-lease', `${LEASE_MS / 1000}s`, '--import-timeout', '5m'], {
    ...CLI_ENV,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
  }).then((process) => {
    started.push(process);
    return process;
  });
}

beforeAll(async () => {
  postgres = await startTempPostgres();
  databaseUrl = await postgres.freshDatabaseUrl();
  dataDir = mkdtempSync(join(tmpdir(), 'recourse-pg-tasks-'));
  local = await createPgBoardServer({
    databaseUrl,
    logger: pino({ level: 'silent' }),
    tasks: { leaseMs: LEASE_MS, pollIntervalMs: 100 },
  });
  localHost = await startHttpHost({
    factory: local.server.createMcpServer,
    canceller: local.server.inflight,
    verifier: local.verifier,
    flood: false,
  });
  const member = await local.services.members.add({ name: 'Pat', kind: 'person', role: 'owner' });
  token = (await local.services.tokens.create(member.id)).token;
  await local.services.tasks.importTasks(
    localWriteContext(principalOf(member)),
    Array.from({ length: SEEDED }, (_, i) => ({ title: `Shared task ${i + 1}` })),
  );
  // An import source that accepts connections and never answers.
  silent = await startSilentSource();
  silentUrl = `${silent.url}/tasks.json`;
});

afterAll(async () => {
  for (const process of started) await process.stop().catch(() => undefined);
  await silent.close();
  await localHost.close();
  await local.close();
  await postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('tasks on two instances sharing PostgreSQL', () => {
  it('polls a task started on the serve process to completion through the other instance', async () => {
    const remote = await serve();
    const onRemote = await openTaskSession(remote.url, token, ENDPOINT);
    const onLocal = await openTaskSession(localHost.url, token, ENDPOINT);
    try {
      const execution = await onRemote.session.callTool('board_export', { format: 'json' });
      if (execution.kind !== 'task') throw new Error('board_export did not run as a task');
      let reference: SerializedTaskReference | undefined;
      await execution.handoff((ref) => {
        reference = ref;
      });
      if (reference === undefined) throw new Error('no reference was handed off');
      const resumed = await onLocal.session.resumeTask(reference);
      const statuses: string[] = [];
      const { outcome } = await resumed.settle({
        onEvent: (event) => {
          if (event.type === 'task') statuses.push(event.task.status);
        },
      });
      expect(outcome.status).toBe('completed');
      if (outcome.status !== 'completed') return;
      expect(outcome.result).toMatchObject({ structuredContent: { total: SEEDED } });
      expect(statuses[0]).toBe('working');
    } finally {
      await onRemote.close();
      await onLocal.close();
    }
  });

  it('fails a task whose instance was killed within the lease, with a message that says so', async () => {
    const remote = await serve();
    const viaRemote = wireCaller(remote.url, token);
    const viaLocal = wireCaller(localHost.url, token);
    const created = await viaRemote('tools/call', { name: 'tasks_import', arguments: { source: silentUrl } });
    if (created.kind !== 'result' || typeof created.result.taskId !== 'string')
      throw new Error(`no task: ${JSON.stringify(created)}`);
    const taskId = created.result.taskId;
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
    const before = await viaLocal('tasks/get', { taskId });
    expect(before.kind === 'result' && before.result.status).toBe('working');

    process.kill(remote.pid, 'SIGKILL');
    expect(await remote.exited).toBe('SIGKILL');
    const killedAt = Date.now();
    let seen = before;
    while (
      seen.kind === 'result' &&
      seen.result.status === 'working' &&
      Date.now() - killedAt < LEASE_MS * 5
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await viaLocal('tasks/get', { taskId });
    }
    const failedAfterMs = Date.now() - killedAt;
    console.info(
      `task of a killed instance read failed ${failedAfterMs} ms after SIGKILL (lease ${LEASE_MS} ms)`,
    );
    expect(seen.kind === 'result' && seen.result).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: expect.stringContaining('stopped before the task finished') },
      statusMessage: expect.stringContaining('check its effects before calling the tool again'),
    });
    // Within the lease (plus the poll step and a margin for a loaded machine).
    expect(failedAfterMs).toBeLessThan(LEASE_MS + 1500);
    expect(await local.services.store.countTasks()).toBe(SEEDED);
  });
});
