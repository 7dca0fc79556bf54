/**
 * The tasks extension served by createRecourseServer over real HTTP: submission after the guards, the task
 * methods for the caller only, -32021 for clients without the extension, cancellation reaching the work,
 * isError results completing the task, and the call log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { pino } from 'pino';
import { DetailedTaskV2Schema, CreateTaskResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { ToolFailure } from '@recourse/core';
import {
  createMemoryCallLog,
  createRecourseServer,
  defineTool,
  startHttpHost,
  type HttpHost,
  type Principal,
  type TokenVerifier,
} from '@recourse/server';
import { settleTask, wireCaller, type WireCaller } from './support/tasks-wire.ts';

const members: Record<string, Principal> = {
  'tok-ann': { id: 'm_ann', name: 'Ann', role: 'owner' },
  'tok-bob': { id: 'm_bob', name: 'Bob', role: 'owner' },
  'tok-vic': { id: 'm_vic', name: 'Vic', role: 'viewer' },
};
const verifier: TokenVerifier = {
  verify: (token) => {
    const principal = members[token];
    return Promise.resolve(
      principal === undefined ? { ok: false, reason: 'unknown' } : { ok: true, principal },
    );
  },
};
const stops: string[] = [];

const tools = [
  defineTool({
    name: 'count',
    description: 'Counts to `to`, one step every `stepMs`.',
    input: z.strictObject({
      to: z.number().int().min(0).max(1000),
      stepMs: z.number().int().min(0).max(1000),
    }),
    annotations: { readOnlyHint: true },
    permission: 'work:run',
    idempotent: true,
    task: { support: 'optional' },
    handler: async ({ to, stepMs }, ctx) => {
      for (let i = 1; i <= to; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, stepMs));
        if (ctx.signal.aborted) {
          stops.push(`count stopped at ${i}`);
          throw ctx.signal.reason as Error;
        }
        await ctx.progress(i, to);
      }
      return {
        text: `Counted to ${to}${ctx.task === undefined ? '' : ' as a task'}.`,
        structuredContent: { to },
      };
    },
  }),
  defineTool({
    name: 'refuse',
    description: 'Always refuses.',
    input: z.strictObject({}),
    annotations: { readOnlyHint: true },
    permission: 'work:run',
    task: { support: 'required' },
    handler: () =>
      Promise.reject(
        new ToolFailure({
          category: 'business',
          code: 'NOPE',
          message: 'No.',
          retryable: false,
          changed: false,
        }),
      ),
  }),
];

describe('tasks extension over HTTP', () => {
  let host: HttpHost;
  let server: ReturnType<typeof createRecourseServer>;
  const callLog = createMemoryCallLog();
  let ann: WireCaller;
  let bob: WireCaller;
  beforeAll(async () => {
    server = createRecourseServer({
      name: 'tasks-test',
      version: '0.0.1',
      tools,
      permissions: { allows: (role) => role === 'owner', rolesGranting: () => ['owner'] },
      logger: pino({ enabled: false }),
      callLog,
      tasks: { pollIntervalMs: 250, ttlMs: 60_000 },
    });
    host = await startHttpHost({ factory: server.createMcpServer, verifier });
    ann = wireCaller(host.url, 'tok-ann');
    bob = wireCaller(host.url, 'tok-bob');
  });
  afterAll(async () => {
    await host.close();
    await server.close();
  });

  it('answers a declaring client with a durable task that completes with the tool result', async () => {
    const created = await ann('tools/call', { name: 'count', arguments: { to: 3, stepMs: 20 } });
    expect(created.kind).toBe('result');
    if (created.kind !== 'result') return;
    expect(CreateTaskResultV2Schema.safeParse(created.result).success).toBe(true);
    expect(created.result).toMatchObject({
      resultType: 'task',
      status: 'working',
      pollIntervalMs: 250,
      ttlMs: 60_000,
    });
    const taskId = created.result.taskId as string;
    expect(taskId).toMatch(/^tsk_[A-Za-z0-9_-]{22}$/);
    const first = await ann('tasks/get', { taskId });
    expect(first.kind).toBe('result');
    const done = await settleTask(ann, taskId);
    expect(DetailedTaskV2Schema.safeParse(done).success).toBe(true);
    expect(done).toMatchObject({ status: 'completed', resultType: 'complete' });
    expect(JSON.stringify(done.result)).toContain('Counted to 3 as a task.');
  });

  it('runs inline for a client that did not declare the extension, and -32021 when the tool needs a task', async () => {
    const inline = await ann(
      'tools/call',
      { name: 'count', arguments: { to: 1, stepMs: 0 } },
      { declare: false },
    );
    expect(inline.kind === 'result' && JSON.stringify(inline.result)).toContain('Counted to 1.');
    expect(inline.kind === 'result' && 'taskId' in inline.result).toBe(false);
    const refused = await ann('tools/call', { name: 'refuse', arguments: {} }, { declare: false });
    expect(refused.kind).toBe('error');
    if (refused.kind !== 'error') return;
    expect(refused.error.code).toBe(-32021);
    expect(refused.error.data).toEqual({
      requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    });
    expect(refused.error.message).toContain('nothing was done');
    const methods = await ann('tasks/get', { taskId: 'tsk_x' }, { declare: false });
    expect(methods.kind === 'error' && methods.error.code).toBe(-32021);
  });

  it('completes a task whose tool refused with that isError result, not failed', async () => {
    const created = await ann('tools/call', { name: 'refuse', arguments: {} });
    if (created.kind !== 'result') throw new Error('no task');
    const done = await settleTask(ann, created.result.taskId as string);
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ isError: true });
  });

  it('runs the guards at submission: a viewer is refused before any task exists', async () => {
    const vic = wireCaller(host.url, 'tok-vic');
    const refused = await vic('tools/call', { name: 'count', arguments: { to: 1, stepMs: 0 } });
    expect(refused.kind === 'result' && refused.result.isError).toBe(true);
    expect(refused.kind === 'result' && 'taskId' in refused.result).toBe(false);
    const invalid = await ann('tools/call', { name: 'count', arguments: { to: 'x', stepMs: 0 } });
    expect(invalid.kind === 'result' && invalid.result.isError).toBe(true);
  });

  it('answers -32602 for an unknown task and for another member’s task, alike', async () => {
    const created = await ann('tools/call', { name: 'count', arguments: { to: 2, stepMs: 10 } });
    if (created.kind !== 'result') throw new Error('no task');
    const taskId = created.result.taskId as string;
    for (const method of ['tasks/get', 'tasks/cancel'] as const) {
      const foreign = await bob(method, { taskId });
      expect(foreign.kind === 'error' && foreign.error.code).toBe(-32602);
    }
    const unknown = await ann('tasks/get', { taskId: 'tsk_AAAAAAAAAAAAAAAAAAAAAA' });
    expect(unknown.kind === 'error' && unknown.error.code).toBe(-32602);
    expect(unknown.kind === 'error' && unknown.error.message).toContain('Unknown task');
    expect((await settleTask(ann, taskId)).status).toBe('completed');
  });

  it('cancels running work: the handler sees its signal and the task ends cancelled', async () => {
    const created = await ann('tools/call', { name: 'count', arguments: { to: 1000, stepMs: 20 } });
    if (created.kind !== 'result') throw new Error('no task');
    const taskId = created.result.taskId as string;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ack = await ann('tasks/cancel', { taskId });
    expect(ack).toEqual({ kind: 'result', result: expect.objectContaining({ resultType: 'complete' }) });
    const done = await settleTask(ann, taskId);
    expect(done.status).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(stops.some((line) => line.startsWith('count stopped at'))).toBe(true);
    const again = await ann('tasks/cancel', { taskId });
    expect(again.kind).toBe('result');
  });

  it('replays a submission with the same idempotency key as the same task', async () => {
    const args = { to: 1, stepMs: 0, idempotencyKey: 'count-once-0001' };
    const first = await ann('tools/call', { name: 'count', arguments: args });
    const second = await ann('tools/call', { name: 'count', arguments: args });
    if (first.kind !== 'result' || second.kind !== 'result') throw new Error('no task');
    expect(second.result.taskId).toBe(first.result.taskId);
  });

  it('records submission and outcome in the call log under one correlation id', async () => {
    const created = await ann('tools/call', { name: 'count', arguments: { to: 1, stepMs: 0 } });
    if (created.kind !== 'result') throw new Error('no task');
    await settleTask(ann, created.result.taskId as string);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const submitted = callLog.entries.filter((entry) => entry.code === 'TASK_SUBMITTED').at(-1);
    expect(submitted).toBeDefined();
    const settled = callLog.entries.filter(
      (entry) => entry.correlationId === submitted?.correlationId && entry.code !== 'TASK_SUBMITTED',
    );
    expect(settled).toHaveLength(1);
    expect(settled[0]?.outcome).toBe('ok');
  });
});
