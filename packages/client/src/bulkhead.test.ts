import { describe, expect, it } from 'vitest';
import { Bulkhead, BulkheadRefused } from './bulkhead.ts';

/** Settles `promise` into what a test can compare: 'admitted', or the refusal. */
function outcome(promise: Promise<void>): Promise<string> {
  return promise.then(
    () => 'admitted',
    (error: unknown) => (error instanceof BulkheadRefused ? error.refusal : 'other'),
  );
}

describe('Bulkhead', () => {
  it('gives free slots at once, then queues in order and hands each freed slot to the longest waiting', async () => {
    const bulkhead = new Bulkhead(2, 2);
    expect([bulkhead.tryEnter(), bulkhead.tryEnter(), bulkhead.tryEnter()]).toEqual([true, true, false]);
    const order: string[] = [];
    const first = bulkhead.wait().then(() => order.push('first'));
    const second = bulkhead.wait().then(() => order.push('second'));
    expect(await outcome(bulkhead.wait())).toBe('full');
    bulkhead.leave();
    await first;
    expect(order).toEqual(['first']);
    expect(bulkhead.tryEnter()).toBe(false); // the freed slot went to the waiting call, not to a newcomer
    bulkhead.leave();
    await second;
    expect(order).toEqual(['first', 'second']);
    bulkhead.leave();
    bulkhead.leave();
    expect(bulkhead.tryEnter()).toBe(true);
  });

  it('lets a waiting call whose caller aborts leave the queue at once, and skips it when a slot frees', async () => {
    const bulkhead = new Bulkhead(1, 2);
    expect(bulkhead.tryEnter()).toBe(true);
    const abort = new AbortController();
    const abandoned = outcome(bulkhead.wait(abort.signal));
    const kept = outcome(bulkhead.wait());
    abort.abort();
    expect(await abandoned).toBe('cancelled');
    bulkhead.leave();
    expect(await kept).toBe('admitted');
    expect(await outcome(bulkhead.wait(AbortSignal.abort()))).toBe('cancelled');
  });
});
