import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { decodeFailure } from '@recourse/core';
import { createRecourseServer } from '../recourse-server.ts';
import { createMemoryIdempotencyStore } from '../idempotency-store.memory.ts';
import { createMemoryCallLog } from '../call-log.memory.ts';
import { captureLogger, connect, delay, member, TEST_POLICY } from '../testing/harness.ts';
import { createTestTools } from '../testing/test-tools.ts';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function setup(defaultDeadlineMs?: number) {
  const { world, tools } = createTestTools();
  const store = createMemoryIdempotencyStore();
  const callLog = createMemoryCallLog();
  const server = createRecourseServer({
    name: 'idempotency-test',
    version: '0.0.1',
    tools,
    permissions: TEST_POLICY,
    logger: captureLogger().logger,
    idempotency: { store },
    callLog,
    ...(defaultDeadlineMs === undefined ? {} : { defaultDeadlineMs }),
  });
  const open = async (principalId = 'm_1') => {
    const client = await connect(server, member(principalId));
    clients.push(client);
    return client;
  };
  return { world, open, store, callLog };
}

const KEY = 'key-0001-abcdef';

describe('idempotency', () => {
  it('replays the first success for a repeat with the same key and arguments, writing once', async () => {
    const { world, open } = setup();
    const client = await open();
    const first = await client.callTool({
      name: 'notes_add',
      arguments: { text: 'buy milk', idempotencyKey: KEY },
    });
    const second = await client.callTool({
      name: 'notes_add',
      arguments: { idempotencyKey: KEY, text: 'buy milk' },
    });
    expect(first.isError).toBeFalsy();
    expect(second.content).toEqual(first.content);
    expect(second.structuredContent).toEqual({ id: 1 });
    expect(world.notes).toHaveLength(1);
    expect(world.noteRuns).toBe(1);
  });

  it('runs calls without a key every time', async () => {
    const { world, open } = setup();
    const client = await open();
    await client.callTool({ name: 'notes_add', arguments: { text: 'a' } });
    await client.callTool({ name: 'notes_add', arguments: { text: 'a' } });
    expect(world.notes).toHaveLength(2);
  });

  it('scopes keys per member', async () => {
    const { world, open } = setup();
    await (await open('m_1')).callTool({ name: 'notes_add', arguments: { text: 'a', idempotencyKey: KEY } });
    await (await open('m_2')).callTool({ name: 'notes_add', arguments: { text: 'a', idempotencyKey: KEY } });
    expect(world.notes.map((n) => n.by)).toEqual(['m_1', 'm_2']);
  });

  it('refuses the same key with other arguments as a conflict naming the key', async () => {
    const { world, open } = setup();
    const client = await open();
    await client.callTool({ name: 'notes_add', arguments: { text: 'buy milk', idempotencyKey: KEY } });
    const reused = await client.callTool({
      name: 'notes_add',
      arguments: { text: 'buy bread', idempotencyKey: KEY },
    });
    expect(reused.isError).toBe(true);
    expect(decodeFailure(reused)).toMatchObject({
      category: 'conflict',
      code: 'IDEMPOTENCY_KEY_REUSED',
      changed: false,
    });
    expect((reused.content as { text: string }[])[0]?.text).toContain(KEY);
    expect(world.notes.map((n) => n.text)).toEqual(['buy milk']);
  });

  it('runs exactly one of 25 concurrent calls with one key; the others wait and replay its result', async () => {
    const { world, open } = setup();
    const client = await open();
    const calls = Array.from({ length: 25 }, () =>
      client.callTool({ name: 'notes_add', arguments: { text: 'once', holdMs: 150, idempotencyKey: KEY } }),
    );
    const results = await Promise.all(calls);
    expect(world.noteRuns).toBe(1);
    expect(world.notes).toHaveLength(1);
    for (const result of results) {
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ id: 1 });
    }
  });

  it('releases the claim of a failed call so that a retry with the key runs', async () => {
    const { world, open } = setup();
    world.failNextNotes = 1;
    const client = await open();
    const failed = await client.callTool({
      name: 'notes_add',
      arguments: { text: 'x', idempotencyKey: KEY },
    });
    expect(decodeFailure(failed)?.code).toBe('NOTEBOOK_NOT_FOUND');
    const retried = await client.callTool({
      name: 'notes_add',
      arguments: { text: 'x', idempotencyKey: KEY },
    });
    expect(retried.isError).toBeFalsy();
    expect(world.noteRuns).toBe(2);
    expect(world.notes).toHaveLength(1);
  });

  it("bounds the wait for a held key by the waiting call's own deadline, and frees the key of a late failure", async () => {
    const { world, open } = setup(150);
    const client = await open();
    const args = { text: 'slow', holdMs: 400, idempotencyKey: KEY };
    const started = Date.now();
    const [a, b] = await Promise.all([
      client.callTool({ name: 'notes_add', arguments: args }),
      client.callTool({ name: 'notes_add', arguments: args }),
    ]);
    expect(Date.now() - started).toBeLessThan(150 + 250);
    expect(decodeFailure(a)).toMatchObject({ code: 'DEADLINE_EXCEEDED', changed: false });
    expect(decodeFailure(b)).toMatchObject({ code: 'DEADLINE_EXCEEDED', changed: false });
    expect(world.noteRuns).toBe(1);
    // The first handler wakes at 400 ms, its write is refused, and its claim is released.
    await delay(400);
    const retried = await client.callTool({
      name: 'notes_add',
      arguments: { text: 'slow', idempotencyKey: KEY },
    });
    expect(retried.isError).toBeFalsy();
    expect(world.noteRuns).toBe(2);
    expect(world.notes.map((n) => n.text)).toEqual(['slow']);
  });

  it('validates the key itself: too short is a validation failure naming idempotencyKey', async () => {
    const { world, open } = setup();
    const client = await open();
    const result = await client.callTool({
      name: 'notes_add',
      arguments: { text: 'x', idempotencyKey: 'short' },
    });
    expect(decodeFailure(result)).toMatchObject({ category: 'validation' });
    expect((result.content as { text: string }[])[0]?.text).toContain('idempotencyKey');
    expect(world.noteRuns).toBe(0);
  });

  it('refuses an idempotency key on a tool that does not take one', async () => {
    const { open } = setup();
    const client = await open();
    const result = await client.callTool({ name: 'echo', arguments: { text: 'x', idempotencyKey: KEY } });
    expect(decodeFailure(result)).toMatchObject({ category: 'validation' });
  });
});
