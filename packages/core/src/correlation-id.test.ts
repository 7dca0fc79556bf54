import { describe, expect, it } from 'vitest';
import { isCorrelationId, newCorrelationId } from './correlation-id.ts';

describe('newCorrelationId', () => {
  it('returns c_ and 22 base62 characters, distinct on every call', () => {
    const ids = Array.from({ length: 500 }, () => newCorrelationId());
    for (const id of ids) expect(id).toMatch(/^c_[0-9A-Za-z]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every(isCorrelationId)).toBe(true);
  });

  it('uses the whole alphabet (no bias towards a few characters)', () => {
    const chars = new Set(Array.from({ length: 200 }, () => newCorrelationId().slice(2)).join(''));
    expect(chars.size).toBeGreaterThan(55);
  });

  it('rejects strings that are not correlation ids', () => {
    expect(isCorrelationId('c_short')).toBe(false);
    expect(isCorrelationId('x_abcdefghijklmnopqr')).toBe(false);
    expect(isCorrelationId(42)).toBe(false);
  });
});
