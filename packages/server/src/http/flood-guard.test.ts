import { describe, expect, it } from 'vitest';
import { createFloodGuard } from './flood-guard.ts';

describe('createFloodGuard', () => {
  it('lets the limit through per address, then refuses with 429 and Retry-After in seconds', async () => {
    const guard = createFloodGuard({ requests: 3, perMs: 10_000 });
    const results = [];
    for (let i = 0; i < 5; i += 1) results.push(await guard('10.0.0.1'));
    expect(results.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    const refusal = results[3]!;
    expect(refusal).toMatchObject({ status: 429, code: -31429, reason: 'flood' });
    const retryAfter = Number(refusal.headers?.['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(refusal.message).toContain('3 requests per 10 s');
    expect(refusal.message).toContain('Nothing was changed.');
    expect(await guard('10.0.0.2')).toBeUndefined();
  });

  it('lets everything through when disabled', async () => {
    const guard = createFloodGuard(false);
    for (let i = 0; i < 50; i += 1) expect(await guard('10.0.0.1')).toBeUndefined();
  });

  it('refuses a nonsensical limit at construction', () => {
    expect(() => createFloodGuard({ requests: 0, perMs: 1000 })).toThrow(RangeError);
    expect(() => createFloodGuard({ requests: 5, perMs: -1 })).toThrow(RangeError);
  });
});

describe('flood refusal logging', () => {
  it('marks only the first refusal of a window as worth a warning', async () => {
    const guard = createFloodGuard({ requests: 1, perMs: 10_000 });
    await guard('10.0.0.9');
    const first = await guard('10.0.0.9');
    const second = await guard('10.0.0.9');
    expect(first?.quiet).toBe(false);
    expect(second?.quiet).toBe(true);
  });
});
