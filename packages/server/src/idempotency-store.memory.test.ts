import { describe, expect, it } from 'vitest';
import { createMemoryIdempotencyStore } from './idempotency-store.memory.ts';

describe('createMemoryIdempotencyStore', () => {
  it('claims once, reports pending, then done with the stored result', async () => {
    const store = createMemoryIdempotencyStore();
    expect(await store.claim('m', 'k', 'tool', 'h1', 1000)).toMatchObject({ state: 'claimed' });
    expect(await store.claim('m', 'k', 'tool', 'h1', 1000)).toEqual({ state: 'pending' });
    await store.complete('m', 'k', { text: 'ok' });
    expect(await store.claim('m', 'k', 'tool', 'h1', 1000)).toEqual({
      state: 'done',
      argsHash: 'h1',
      result: { text: 'ok' },
    });
  });

  it('answers mismatch for other arguments or another tool under the same key', async () => {
    const store = createMemoryIdempotencyStore();
    await store.claim('m', 'k', 'tool', 'h1', 1000);
    expect(await store.claim('m', 'k', 'tool', 'h2', 1000)).toEqual({ state: 'mismatch' });
    expect(await store.claim('m', 'k', 'other', 'h1', 1000)).toEqual({ state: 'mismatch' });
    expect(await store.claim('m2', 'k', 'tool', 'h2', 1000)).toMatchObject({ state: 'claimed' });
  });

  it('forgets records after their TTL and lets released claims be taken again', async () => {
    let now = 1_000;
    const store = createMemoryIdempotencyStore({ now: () => now });
    await store.claim('m', 'k', 'tool', 'h1', 500);
    await store.complete('m', 'k', { text: 'ok' });
    now += 499;
    expect((await store.claim('m', 'k', 'tool', 'h1', 500)).state).toBe('done');
    now += 1;
    expect(store.size).toBe(0);
    expect((await store.claim('m', 'k', 'tool', 'h2', 500)).state).toBe('claimed');
    await store.release('m', 'k');
    expect((await store.claim('m', 'k', 'tool', 'h3', 500)).state).toBe('claimed');
  });
});
