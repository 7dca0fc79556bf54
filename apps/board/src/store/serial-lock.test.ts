import { describe, expect, it } from 'vitest';
import { createSerialLock } from './serial-lock.ts';

describe('createSerialLock', () => {
  it('runs a synchronous section only after the async section queued before it has finished', async () => {
    const lock = createSerialLock();
    const order: string[] = [];
    let release: () => void = () => undefined;
    const first = lock.run(async () => {
      order.push('tx begin');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      order.push('tx end');
    });
    const second = lock.runSync(() => {
      order.push('read');
      return 7;
    });
    await Promise.resolve();
    release();
    await first;
    expect(await second).toBe(7);
    expect(order).toEqual(['tx begin', 'tx end', 'read']);
  });

  it('turns a throw of a synchronous section into a rejection that does not block the next section', async () => {
    const lock = createSerialLock();
    const failed = lock.runSync(() => {
      throw new Error('constraint failed');
    });
    await expect(failed).rejects.toThrow('constraint failed');
    await expect(lock.runSync(() => 'next')).resolves.toBe('next');
  });
});
