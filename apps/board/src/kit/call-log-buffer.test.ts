import { describe, expect, it } from 'vitest';
import type { CallLogEntry } from '@recourse/server';
import { createCallLogBuffer } from './call-log-buffer.ts';

function entry(n: number): CallLogEntry {
  return {
    at: '2026-07-28T10:00:00Z',
    principalId: 'm1',
    tool: 'tasks_get',
    outcome: 'ok',
    code: null,
    durationMs: 1,
    correlationId: `c_${String(n)}`,
  };
}

describe('call-log buffer', () => {
  it('writes nothing on the call, then one batch shortly after', async () => {
    const batches: string[][] = [];
    const buffer = createCallLogBuffer(
      (entries) => {
        batches.push(entries.map((e) => e.correlationId));
        return Promise.resolve();
      },
      { flushIntervalMs: 20 },
    );
    buffer.add(entry(1));
    buffer.add(entry(2));
    expect(batches).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(batches).toEqual([['c_1', 'c_2']]);
  });

  it('writes at once when the buffer is full, and everything at close', async () => {
    const batches: number[] = [];
    const buffer = createCallLogBuffer(
      (entries) => {
        batches.push(entries.length);
        return Promise.resolve();
      },
      { flushIntervalMs: 60_000, maxBuffered: 3 },
    );
    for (let i = 0; i < 7; i += 1) buffer.add(entry(i));
    await buffer.flush();
    expect(batches).toEqual([3, 3, 1]);
    buffer.add(entry(8));
    await buffer.close();
    expect(batches).toEqual([3, 3, 1, 1]);
  });

  it('reports a failed batch with the number of entries lost and goes on', async () => {
    const lost: number[] = [];
    let fail = true;
    const written: string[] = [];
    const buffer = createCallLogBuffer(
      (entries) => {
        if (fail) return Promise.reject(new Error('disk full'));
        written.push(...entries.map((e) => e.correlationId));
        return Promise.resolve();
      },
      { onError: (_error, count) => lost.push(count) },
    );
    buffer.add(entry(1));
    buffer.add(entry(2));
    await buffer.flush();
    fail = false;
    buffer.add(entry(3));
    await buffer.close();
    expect(lost).toEqual([2]);
    expect(written).toEqual(['c_3']);
  });
});
