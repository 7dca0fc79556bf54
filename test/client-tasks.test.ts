/**
 * Task-backed calls of @recourse/client against Recourse Board over HTTP: the same `callTool` settles a tool that
 * runs as a task with its result (or a typed failure), a caller's abort cancels the task it abandons, and a task
 * started by a process that then exits is finished by a new client from the persisted reference.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRecourseClient,
  isRecourseCallError,
  type RecourseCallError,
  type TaskReference,
} from '@recourse/client';
import { startFlakyProxy } from '@recourse/client/testing';
import { startTestBoard, type TestBoard } from '../apps/board/src/testing/board-host.ts';
import { principalOf } from '../apps/board/src/testing/board-fixture.ts';
import { localWriteContext } from '../apps/board/src/services/write-context.ts';
import { settleTask, wireCaller } from './support/tasks-wire.ts';
import { startSilentSource, type SilentSource } from './support/silent-source.ts';

const START_SCRIPT = fileURLToPath(new URL('./support/start-task-and-exit.ts', import.meta.url));
const run = promisify(execFile);
const SEEDED = 2500;

let tb: TestBoard;
let silent: SilentSource;
let silentUrl: string;

beforeAll(async () => {
  tb = await startTestBoard({ tasks: { pollIntervalMs: 100 }, importSource: { timeoutMs: 3000 } });
  await tb.board.services.tasks.importTasks(
    localWriteContext(principalOf(tb.members.owner)),
    Array.from({ length: SEEDED }, (_, i) => ({ title: `Task ${i + 1}` })),
  );
  silent = await startSilentSource();
  silentUrl = `${silent.url}/rows.json`;
});

afterAll(async () => {
  await silent.close();
  await tb.close();
});

async function failureOf(promise: Promise<unknown>): Promise<RecourseCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isRecourseCallError(error)) throw new Error(`expected a call failure, got ${String(error)}`);
  return error;
}

describe('@recourse/client task-backed calls against the board', () => {
  it('settles board_export through callTool as a task, with progress and the task id', async () => {
    const client = createRecourseClient({ target: { url: tb.url, token: tb.tokens.owner } });
    try {
      const seen: string[] = [];
      let created: TaskReference | undefined;
      const success = await client.callTool(
        'board_export',
        { format: 'json' },
        {
          task: {
            onCreated: (reference) => void (created = reference),
            onStatus: (snapshot) => seen.push(snapshot.status),
          },
        },
      );
      expect(success.taskId).toMatch(/^tsk_/);
      expect(created).toEqual({ taskId: success.taskId, tool: 'board_export', url: tb.url });
      expect(success.result.structuredContent).toMatchObject({ total: SEEDED });
      expect(seen.at(-1)).toBe('completed');
      expect(success.attempts[0]).toMatchObject({ outcome: 'ok', code: 'TASK_CREATED' });
      // Inline when the caller asks for it: one page, no task.
      const inline = await client.callTool('board_export', { limit: 5 }, { task: false });
      expect(inline.taskId).toBeUndefined();
      expect((inline.result.structuredContent as { tasks: unknown[] }).tasks).toHaveLength(5);
    } finally {
      await client.close();
    }
  });

  it('rejects with the typed tool failure a task completed with (a tool named as task-capable in `tools`)', async () => {
    const client = createRecourseClient({
      target: { url: tb.url, token: tb.tokens.owner },
      tools: { tasks_import: { task: 'optional' } },
    });
    try {
      const failure = await failureOf(client.callTool('tasks_import', { source: silentUrl }));
      expect(failure.kind).toBe('tool');
      if (failure.kind !== 'tool') return;
      expect(failure.category).toBe('transient');
      expect(failure.failure?.code).toBe('UPSTREAM_TIMEOUT');
      expect(failure.message).toContain('Nothing was imported.');
      expect(failure.attempts.map((a) => a.code)).toEqual(['TASK_CREATED', 'completed']);
    } finally {
      await client.close();
    }
  });

  it('cancels the task it abandons when the caller aborts', async () => {
    const client = createRecourseClient({ target: { url: tb.url, token: tb.tokens.owner } });
    try {
      const controller = new AbortController();
      let taskId = '';
      const call = client.callTool(
        'board_export',
        { format: 'csv' },
        {
          signal: controller.signal,
          task: {
            onCreated: (reference) => {
              taskId = reference.taskId;
              controller.abort();
            },
          },
        },
      );
      const failure = await failureOf(call);
      expect(failure.kind === 'local' && failure.reason).toBe('cancelled');
      expect(failure.message).toContain('The task was cancelled on the server');
      const done = await settleTask(wireCaller(tb.url, tb.tokens.owner), taskId);
      expect(done.status).toBe('cancelled');
    } finally {
      await client.close();
    }
  });

  it('survives 3 failed polls in a row over HTTP (503 from a proxy), and gives up at a cap of 3, cancelling the task', async () => {
    let failing = 0;
    const proxy = await startFlakyProxy({
      target: tb.url,
      decide: (request) =>
        request.rpcMethod === 'tasks/get' && failing > 0 ? (failing--, { status: 503 }) : 'pass',
    });
    const client = createRecourseClient({ target: { url: proxy.url, token: tb.tokens.owner } });
    try {
      const policy = { minIntervalMs: 50, maxIntervalMs: 200 };
      failing = 3;
      const survived = await client.callTool(
        'board_export',
        { format: 'json' },
        { task: { policy: { ...policy, maxFailedPolls: 4 } } },
      );
      expect(survived.result.structuredContent).toMatchObject({ total: SEEDED });
      expect(proxy.counts.status).toBe(3);

      failing = 3;
      let taskId = '';
      // An import from a source that never answers keeps its task working for the 3 s import deadline, so the
      // cap is reached while the task runs (an export may finish first on a quiet machine).
      const capped = client.callTool(
        'tasks_import',
        { source: silentUrl },
        {
          task: {
            policy: { ...policy, maxFailedPolls: 3 },
            onCreated: (reference) => void (taskId = reference.taskId),
          },
        },
      );
      const failure = await failureOf(capped);
      expect(failure).toMatchObject({ kind: 'local', reason: 'transport', retryable: true });
      expect(failure.message).toContain('failed 3 times in a row');
      expect(failure.message).toContain('The task was cancelled on the server');
      const done = await settleTask(wireCaller(tb.url, tb.tokens.owner), taskId);
      expect(done.status).toBe('cancelled');
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it('cancels the task when onCreated cannot keep its reference, and rejects with that error', async () => {
    const client = createRecourseClient({ target: { url: tb.url, token: tb.tokens.owner } });
    try {
      let taskId = '';
      const call = client.callTool(
        'board_export',
        {},
        {
          task: {
            onCreated: (reference) => {
              taskId = reference.taskId;
              throw new Error('disk full');
            },
          },
        },
      );
      await expect(call).rejects.toThrow('disk full');
      const done = await settleTask(wireCaller(tb.url, tb.tokens.owner), taskId);
      expect(done.status).toBe('cancelled');
    } finally {
      await client.close();
    }
  });

  it('finishes, in a new client, a task whose starting process exited, from the persisted reference', async () => {
    const child = await run(
      process.execPath,
      [
        '--conditions=recourse-source',
        '--import',
        'tsx',
        START_SCRIPT,
        tb.url,
        tb.tokens.owner,
        'board_export',
        JSON.stringify({ format: 'json' }),
      ],
      { timeout: 60_000 },
    );
    const reference = JSON.parse(child.stdout.trim()) as TaskReference;
    expect(reference).toMatchObject({ tool: 'board_export', url: tb.url });
    const restarted = createRecourseClient({ target: { url: tb.url, token: tb.tokens.owner } });
    try {
      const success = await restarted.resumeTask(reference);
      expect(success.taskId).toBe(reference.taskId);
      expect(success.result.structuredContent).toMatchObject({ total: SEEDED });
      // Another member's client cannot: the task reads as unknown, a typed -32602.
      const stranger = createRecourseClient({ target: { url: tb.url, token: tb.tokens.maintainer } });
      const failure = await failureOf(stranger.resumeTask(reference));
      await stranger.close();
      expect(failure.kind === 'protocol' && failure.rpcCode).toBe(-32602);
    } finally {
      await restarted.close();
    }
  });
});
