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

  it('runs a read at once while nothing is queued, and behind a transaction while one is open', async () => {
    const lock = createSerialLock();
    const order: string[] = [];
    const idle = lock.readSync(() => {
      order.push('idle read');
      return 1;
    });
    expect(order).toEqual(['idle read']);
    await expect(idle).resolves.toBe(1);
    await expect(
      lock.readSync(() => {
        throw new Error('no such table');
      }),
    ).rejects.toThrow('no such table');

    let release: () => void = () => undefined;
    const tx = lock.run(async () => {
      order.push('tx begin');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      expect(lock.held()).toBe(true);
      order.push('tx end');
    });
    const queued = lock.readSync(() => {
      order.push('queued read');
      return 2;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['idle read', 'tx begin']);
    release();
    await tx;
    await expect(queued).resolves.toBe(2);
    expect(order).toEqual(['idle read', 'tx begin', 'tx end', 'queued read']);
    expect(lock.held()).toBe(false);
    await expect(lock.run(() => Promise.resolve(lock.held()))).resolves.toBe(true);
  });
});
