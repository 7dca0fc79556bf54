import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createMemoryTaskStore } from './task-store.memory.ts';
import { createTaskRuntime, type TaskRuntime } from './task-runtime.ts';
import type { TaskStore } from './task-store.ts';

const logger = pino({ enabled: false });
const never = (signal: AbortSignal): Promise<never> =>
  new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));

describe('task runtime', () => {
  const runtimes: TaskRuntime[] = [];
  const open = (store: TaskStore, leaseMs = 300, ttlMs = 60_000): TaskRuntime => {
    const runtime = createTaskRuntime({ store, logger, leaseMs, ttlMs });
    runtimes.push(runtime);
    return runtime;
  };
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  });

  it('lets another instance read a task and fails it once the instance running it stops renewing its lease', async () => {
    const store = createMemoryTaskStore();
    let dead = false;
    const dying: TaskStore = {
      ...store,
      renewLeases: (id, until) => (dead ? Promise.resolve([]) : store.renewLeases(id, until)),
    };
    const a = open(dying);
    const b = open(store);
    const task = await a.launch({ ownerId: 'm1', tool: 'slow', run: (work) => never(work.signal) });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await b.view(task.taskId, 'm1')).status).toBe('working');
    dead = true;
    const killedAt = Date.now();
    let seen = await b.view(task.taskId, 'm1');
    while (seen.status === 'working' && Date.now() - killedAt < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      seen = await b.view(task.taskId, 'm1');
    }
    expect(seen.status).toBe('failed');
    expect(seen.error?.message).toContain('stopped before the task finished');
    expect(Date.now() - killedAt).toBeLessThan(300 + 2_000);
  });

  it('hands input answers given to one instance to the work running on another', async () => {
    const store = createMemoryTaskStore();
    const a = open(store);
    const b = open(store);
    const task = await a.launch({
      ownerId: 'm1',
      tool: 'ask',
      run: async (work) => {
        const answers = await work.input({ q1: { method: 'elicitation/create', params: {} } });
        return { kind: 'result', result: { content: [{ type: 'text', text: JSON.stringify(answers) }] } };
      },
    });
    let seen = await b.view(task.taskId, 'm1');
    for (let i = 0; i < 100 && seen.status !== 'input_required'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen = await b.view(task.taskId, 'm1');
    }
    expect(Object.keys(seen.inputRequests)).toEqual(['q1']);
    await b.update(task.taskId, 'm1', { q1: { action: 'accept', content: { ok: true } }, stray: {} });
    for (let i = 0; i < 200 && seen.status !== 'completed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen = await b.view(task.taskId, 'm1');
    }
    expect(JSON.stringify(seen.result)).toContain('accept');
  });

  it('reads an expired task and another member’s task as unknown (-32602)', async () => {
    const store = createMemoryTaskStore();
    const a = open(store, 300, 50);
    const task = await a.launch({
      ownerId: 'm1',
      tool: 'x',
      run: () => Promise.resolve({ kind: 'cancelled' }),
    });
    await expect(a.view(task.taskId, 'm2')).rejects.toMatchObject({ code: -32602 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    await expect(a.view(task.taskId, 'm1')).rejects.toMatchObject({ code: -32602 });
  });
});
