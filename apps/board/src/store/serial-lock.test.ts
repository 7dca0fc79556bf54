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

  it('runs a section started inside another at once (nested), and queues work left behind after it ended', async () => {
    const lock = createSerialLock();
    const order: string[] = [];
    let late: Promise<string> | undefined;
    const outer = lock.run(async () => {
      order.push('outer begin');
      const inner = await lock.runSync(() => 'inner');
      order.push(inner);
      late = new Promise<string>((resolve) => setTimeout(resolve, 20, 'x')).then(() =>
        lock.runSync(() => {
          order.push('late');
          return 'late';
        }),
      );
      order.push('outer end');
    });
    const queued = lock.runSync(() => order.push('queued'));
    await outer;
    await queued;
    expect(await late).toBe('late');
    expect(order).toEqual(['outer begin', 'inner', 'outer end', 'queued', 'late']);
  });
});
