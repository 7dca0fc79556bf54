import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { createMemoryEventStore } from './memory-event-store.ts';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n },
});

async function replay(store: ReturnType<typeof createMemoryEventStore>, after: string) {
  const sent: unknown[] = [];
  const stream = await store.replayEventsAfter(after, {
    send: (_id, message) => {
      sent.push((message as unknown as { params: { n: number } }).params.n);
      return Promise.resolve();
    },
  });
  return { stream, sent };
}

describe('createMemoryEventStore', () => {
  it('replays the later events of the same stream only, in order', async () => {
    const store = createMemoryEventStore();
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(2));
    await store.storeEvent('a', note(3));
    await store.storeEvent('a', note(4));
    expect(await store.getStreamIdForEventId?.(first)).toBe('a');
    expect(await replay(store, first)).toEqual({ stream: 'a', sent: [3, 4] });
  });

  it('forgets the oldest events beyond its capacity; an evicted or unknown id replays nothing', async () => {
    const store = createMemoryEventStore(2);
    const evicted = await store.storeEvent('a', note(1));
    const kept = await store.storeEvent('a', note(2));
    await store.storeEvent('a', note(3));
    expect(await replay(store, evicted)).toEqual({ stream: '', sent: [] });
    expect(await replay(store, 'no-such-id')).toEqual({ stream: '', sent: [] });
    expect(await replay(store, kept)).toEqual({ stream: 'a', sent: [3] });
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => createMemoryEventStore(0)).toThrow(RangeError);
  });
});
