/**
 * A bounded in-memory event store for the sessionful 2025-era endpoint: it lets a client that lost an SSE
 * stream resume it with `Last-Event-ID` (SEP-1699).
 *
 * @packageDocumentation
 */
import { randomUUID } from 'node:crypto';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** 1 000 events, the default capacity of {@link createMemoryEventStore}. */
export const DEFAULT_EVENT_CAPACITY = 1_000;

interface StoredEvent {
  readonly streamId: StreamId;
  readonly message: JSONRPCMessage;
}

/**
 * Creates an event store that keeps the last `capacity` events (default 1 000) of all streams in insertion order.
 * Event ids are `<streamId>::<sequence>::<random>`; an unknown or evicted id resumes nothing and replays no events.
 */
export function createMemoryEventStore(capacity = DEFAULT_EVENT_CAPACITY): EventStore {
  if (!(Number.isInteger(capacity) && capacity > 0))
    throw new RangeError(`capacity must be a positive integer; received ${capacity}.`);
  const events = new Map<EventId, StoredEvent>();
  let sequence = 0;
  return {
    storeEvent(streamId, message) {
      sequence += 1;
      const id = `${streamId}::${String(sequence).padStart(12, '0')}::${randomUUID().slice(0, 8)}`;
      events.set(id, { streamId, message });
      if (events.size > capacity) {
        const oldest = events.keys().next();
        if (oldest.done !== true) events.delete(oldest.value);
      }
      return Promise.resolve(id);
    },
    getStreamIdForEventId(eventId) {
      return Promise.resolve(events.get(eventId)?.streamId);
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.get(lastEventId);
      if (last === undefined) return '';
      let after = false;
      for (const [id, event] of [...events]) {
        if (id === lastEventId) after = true;
        else if (after && event.streamId === last.streamId) await send(id, event.message);
      }
      return last.streamId;
    },
  };
}
