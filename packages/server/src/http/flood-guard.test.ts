import { describe, expect, it } from 'vitest';
import { createFloodGuard } from './flood-guard.ts';

describe('createFloodGuard', () => {
  it('lets the limit through per address, then refuses with 429 and Retry-After in seconds', async () => {
    const guard = createFloodGuard({ requests: 3, perMs: 10_000 });
    const results = [];
    for (let i = 0; i < 5; i += 1) results.push(await guard({ address: '10.0.0.1' }));
    expect(results.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    const refusal = results[3]!;
    expect(refusal).toMatchObject({ status: 429, code: -31429, reason: 'flood' });
    const retryAfter = Number(refusal.headers?.['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(refusal.message).toContain('3 requests per 10 s');
    expect(refusal.message).toContain('Nothing was changed.');
    expect(refusal.message).toContain('from this client address');
    expect(await guard({ address: '10.0.0.2' })).toBeUndefined();
  });

  it('counts a member under its principal, apart from every address', async () => {
    const guard = createFloodGuard({ requests: 2, perMs: 10_000 });
    await guard({ address: '127.0.0.1' });
    await guard({ address: '127.0.0.2' });
    expect(await guard({ address: '127.0.0.3' })).toMatchObject({ status: 429 });
    expect(await guard({ address: '::ffff:127.0.0.4' })).toMatchObject({ status: 429 });
    expect(await guard({ principal: 'alice' })).toBeUndefined();
    expect(await guard({ principal: 'alice' })).toBeUndefined();
    const refusal = await guard({ principal: 'alice' });
    expect(refusal?.message).toContain('with this credential');
    expect(await guard({ principal: 'bob' })).toBeUndefined();
    expect(await guard({ address: 'alice' })).toBeUndefined();
  });

  it('lets everything through when disabled', async () => {
    const guard = createFloodGuard(false);
    for (let i = 0; i < 50; i += 1) expect(await guard({ address: '10.0.0.1' })).toBeUndefined();
  });

  it('refuses a nonsensical limit at construction', () => {
    expect(() => createFloodGuard({ requests: 0, perMs: 1000 })).toThrow(RangeError);
    expect(() => createFloodGuard({ requests: 5, perMs: -1 })).toThrow(RangeError);
  });
});

describe('flood refusal logging', () => {
  it('marks only the first refusal of a window as worth a warning', async () => {
    const guard = createFloodGuard({ requests: 1, perMs: 10_000 });
    await guard({ address: '10.0.0.9' });
    const first = await guard({ address: '10.0.0.9' });
    const second = await guard({ address: '10.0.0.9' });
    expect(first?.quiet).toBe(false);
    expect(second?.quiet).toBe(true);
  });
});
