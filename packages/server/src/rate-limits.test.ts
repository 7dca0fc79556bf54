import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Client } from '@modelcontextprotocol/client';
import { decodeFailure } from '@recourse/core';
import { createRateLimits, type RateLimitStoreOptions } from './rate-limits.ts';
import { createRecourseServer } from './recourse-server.ts';
import type { RateLimitOptions } from './rate-limits.ts';
import type { Principal } from './contract.ts';
import { captureLogger, connect, delay, member, TEST_POLICY } from './testing/harness.ts';
import { createTestTools } from './testing/test-tools.ts';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function open(rateLimit?: RateLimitOptions, principal = member('m_1')) {
  const { world, tools } = createTestTools();
  const server = createRecourseServer({
    name: 'rate-test',
    version: '0.0.1',
    tools,
    permissions: TEST_POLICY,
    logger: captureLogger().logger,
    ...(rateLimit === undefined ? {} : { rateLimit }),
  });
  const client = await connect(server, principal);
  clients.push(client);
  return { client, world };
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { text?: string }[]).map((c) => c.text ?? '').join('');
}

describe('rate limits through the pipeline', () => {
  it('refuses the 121st call in a minute with the default configuration, saying how long to wait', async () => {
    const { client } = await open();
    const first = Date.now();
    for (let i = 0; i < 120; i++) {
      const ok = await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      expect(ok.isError).toBeFalsy();
    }
    const refused = await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    const expectedWait = 60_000 - (Date.now() - first);
    expect(refused.isError).toBe(true);
    const failure = decodeFailure(refused);
    expect(failure).toMatchObject({
      category: 'rate_limit',
      code: 'RATE_LIMITED',
      retryable: true,
      changed: false,
    });
    expect(Math.abs((failure?.retryAfterMs ?? 0) - expectedWait)).toBeLessThan(1000);
    const text = textOf(refused);
    expect(text).toContain('m_1');
    expect(text).toContain('120 tool calls a minute');
    expect(text).toMatch(/Wait \d+ s and try again/);
    expect(text).toContain('Nothing was changed');
  });

  it('serves again once the window has passed (short window)', async () => {
    const { client } = await open({ defaultPerMinute: 2, windowMs: 1000 });
    const first = Date.now();
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    const refused = await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    const retryAfterMs = decodeFailure(refused)?.retryAfterMs ?? -1;
    expect(Math.abs(retryAfterMs - (1000 - (Date.now() - first)))).toBeLessThan(1000);
    expect(textOf(refused)).toContain('2 tool calls per 1 s');
    await delay(retryAfterMs + 50);
    const again = await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    expect(again.isError).toBeFalsy();
  });

  it('counts a tool cost and refuses a tool that costs more than the whole budget without running it', async () => {
    const { client, world } = await open({ defaultPerMinute: 3 }, member('m_1', 'owner'));
    world.notes.push({ id: 1, text: 'keep', by: 'm_1' });
    const refused = await client.callTool({ name: 'notes_purge', arguments: {} });
    expect(decodeFailure(refused)).toMatchObject({ code: 'RATE_LIMIT_COST_TOO_HIGH', retryable: false });
    expect(world.notes).toHaveLength(1);
  });

  it('applies limits per role and per caller, the role winning', async () => {
    const config = {
      defaultPerMinute: 5,
      perCaller: (p: Principal) => (p.attributes?.['kind'] === 'assistant' ? 2 : undefined),
      perRole: { owner: 1 },
    };
    const assistant = await open(config, member('a_1', 'maintainer', 'assistant'));
    const results = [];
    for (let i = 0; i < 3; i++)
      results.push(await assistant.client.callTool({ name: 'echo', arguments: { text: 'x' } }));
    expect(results.map((r) => r.isError === true)).toEqual([false, false, true]);

    const owner = await open(config, member('o_1', 'owner', 'assistant'));
    const ownerResults = [];
    for (let i = 0; i < 2; i++)
      ownerResults.push(await owner.client.callTool({ name: 'echo', arguments: { text: 'x' } }));
    expect(ownerResults.map((r) => r.isError === true)).toEqual([false, true]);
  });

  it('reports a failing limiter store as a transient failure and does not run the tool', async () => {
    const { client, world } = await open({
      storeFactory: () => {
        const limiter = new RateLimiterMemory({ points: 1, duration: 1 });
        limiter.consume = () =>
          Promise.reject(new Error('SQLITE_BUSY: database is locked at /var/lib/board.db'));
        return limiter;
      },
    });
    const result = await client.callTool({ name: 'notes_add', arguments: { text: 'x' } });
    expect(decodeFailure(result)).toMatchObject({ category: 'transient', code: 'RATE_LIMIT_UNAVAILABLE' });
    expect(textOf(result)).not.toContain('/var/lib');
    expect(world.noteRuns).toBe(0);
  });
});

describe('createRateLimits', () => {
  it('asks the store factory for one limiter per distinct limit, in seconds', async () => {
    const asked: RateLimitStoreOptions[] = [];
    const limits = createRateLimits({
      defaultPerMinute: 10,
      perRole: { owner: 20 },
      storeFactory: (o) => {
        asked.push(o);
        return new RateLimiterMemory(o);
      },
    });
    await limits.consume(member('a', 'viewer'), 1);
    await limits.consume(member('b', 'viewer'), 1);
    await limits.consume(member('c', 'owner'), 1);
    expect(asked).toEqual([
      { keyPrefix: 'recourse-rl-10-60000', points: 10, duration: 60 },
      { keyPrefix: 'recourse-rl-20-60000', points: 20, duration: 60 },
    ]);
  });

  it('refuses limits that are not positive whole numbers', () => {
    expect(() => createRateLimits({ defaultPerMinute: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_RATE_LIMIT' }),
    );
    expect(() => createRateLimits({ perRole: { owner: 1.5 } })).toThrow(/perRole.owner/);
  });
});
