import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { decodeFailure } from '@recourse/core';
import { createRecourseServer } from '../recourse-server.ts';
import { captureLogger, connect, delay, member, TEST_POLICY } from '../testing/harness.ts';
import { createTestTools } from '../testing/test-tools.ts';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function setup() {
  const { world, tools } = createTestTools();
  const server = createRecourseServer({
    name: 'deadline-test',
    version: '0.0.1',
    tools,
    permissions: TEST_POLICY,
    logger: captureLogger().logger,
  });
  return { world, server };
}

async function waitFor(check: () => boolean, limitMs = 2000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!check() && Date.now() < until) await delay(5);
}

describe('deadline', () => {
  it('answers DEADLINE_EXCEEDED within the deadline + 100 ms even when the handler ignores its signal', async () => {
    const { world, server } = setup();
    const client = await connect(server, member('m_1'));
    clients.push(client);
    const started = Date.now();
    const result = await client.callTool({ name: 'slow_write', arguments: { waitMs: 600 } });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(200 + 100);
    expect(result.isError).toBe(true);
    const failure = decodeFailure(result);
    expect(failure).toMatchObject({
      category: 'transient',
      code: 'DEADLINE_EXCEEDED',
      retryable: true,
      changed: false,
    });
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(text).toContain('slow_write');
    expect(text).toContain('200 ms');
    expect(text).toContain('Nothing was changed');
    expect(failure?.retryAfterMs).toBeGreaterThan(0);
    // The handler wakes up later: its write is refused and nothing is written.
    await waitFor(() => world.commitErrors.length > 0);
    expect(world.commitErrors).toEqual(['DEADLINE_EXCEEDED']);
    expect(world.notes).toEqual([]);
  });

  it('lets a handler that finishes in time write and answer normally', async () => {
    const { world, server } = setup();
    const client = await connect(server, member('m_1'));
    clients.push(client);
    const result = await client.callTool({ name: 'slow_write', arguments: { waitMs: 10 } });
    expect(result.isError).toBeFalsy();
    expect(world.notes).toHaveLength(1);
  });
});

describe('cancellation', () => {
  it('fires the handler signal with a cancellation reason and refuses a later write', async () => {
    const { world, server } = setup();
    const client = await connect(server, member('m_1'));
    clients.push(client);
    const controller = new AbortController();
    const call = client.callTool({ name: 'await_cancel', arguments: {} }, { signal: controller.signal });
    await waitFor(() => server.inflight.size === 1);
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow('user pressed stop');
    await waitFor(() => world.abortReasons.length > 0);
    expect(world.abortReasons[0]).toContain('cancelled');
    expect(world.abortReasons[0]).toContain('user pressed stop');
    expect(world.commitErrors).toEqual(['CALL_CANCELLED']);
    expect(world.notes).toEqual([]);
    await waitFor(() => server.inflight.size === 0);
    expect(server.inflight.size).toBe(0);
  });

  it('cancels a running call through the in-flight registry by member and request id', async () => {
    const { world, server } = setup();
    let callId: string | number | undefined;
    const client = await connect(server, member('m_9'), (message) => {
      if ('method' in message && message.method === 'tools/call' && 'id' in message) callId = message.id;
    });
    clients.push(client);
    const call = client.callTool({ name: 'await_cancel', arguments: {} });
    await waitFor(() => server.inflight.size === 1);
    expect(callId).toBeDefined();
    const id = callId ?? -1;
    expect(server.inflight.cancel('m_other', id, 'wrong member')).toBe(false);
    expect(server.inflight.cancel('m_9', id, 'stopped by host')).toBe(true);
    const result = await call;
    expect(decodeFailure(result)).toMatchObject({
      category: 'transient',
      code: 'CALL_CANCELLED',
      changed: false,
    });
    expect(world.abortReasons[0]).toContain('stopped by host');
    await waitFor(() => world.commitErrors.length > 0);
    expect(world.commitErrors).toEqual(['CALL_CANCELLED']);
    expect(world.notes).toEqual([]);
    expect(server.inflight.size).toBe(0);
    expect(server.inflight.cancel('m_9', id, 'again')).toBe(false);
  });
});
