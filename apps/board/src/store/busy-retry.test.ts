import { describe, expect, it } from 'vitest';
import { isToolFailure } from '@recourse/core';
import { isBusyError, retryWhileBusy } from './busy-retry.ts';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

describe('retryWhileBusy', () => {
  it('recognises SQLite busy and locked codes only', () => {
    expect(isBusyError(busy())).toBe(true);
    expect(isBusyError({ code: 'SQLITE_LOCKED_SHAREDCACHE' })).toBe(true);
    expect(isBusyError({ code: 'SQLITE_CORRUPT' })).toBe(false);
    expect(isBusyError(undefined)).toBe(false);
  });

  it('runs the attempt again until the database is free', async () => {
    let attempts = 0;
    const result = await retryWhileBusy(() => {
      attempts += 1;
      return attempts < 4 ? Promise.reject(busy()) : Promise.resolve('done');
    });
    expect(result).toBe('done');
    expect(attempts).toBe(4);
  });

  it('passes other errors through at once', async () => {
    let attempts = 0;
    const boom = new Error('boom');
    await expect(
      retryWhileBusy(() => {
        attempts += 1;
        return Promise.reject(boom);
      }),
    ).rejects.toBe(boom);
    expect(attempts).toBe(1);
  });

  it('gives up after its budget with a transient DATABASE_BUSY failure that says when to retry', async () => {
    let caught: unknown;
    try {
      await retryWhileBusy(() => Promise.reject(busy()), { budgetMs: 50 });
    } catch (error) {
      caught = error;
    }
    expect(isToolFailure(caught)).toBe(true);
    const failure = (caught as { failure: Record<string, unknown> }).failure;
    expect(failure).toMatchObject({
      category: 'transient',
      code: 'DATABASE_BUSY',
      retryAfterMs: 1000,
      changed: false,
    });
    expect(String(failure['message'])).toMatch(/locked by another process/);
  });

  it('stops waiting when its signal fires, with the signal reason', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline');
    setTimeout(() => controller.abort(reason), 30);
    await expect(
      retryWhileBusy(() => Promise.reject(busy()), { budgetMs: 10_000, signal: controller.signal }),
    ).rejects.toBe(reason);
  });
});
