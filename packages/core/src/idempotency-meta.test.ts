import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_META_KEY, idempotencyArgumentOf } from './idempotency-meta.ts';

describe('idempotencyArgumentOf', () => {
  it('reads the argument a tool advertises under dev.recourse/idempotency', () => {
    expect(IDEMPOTENCY_META_KEY).toBe('dev.recourse/idempotency');
    expect(
      idempotencyArgumentOf({ 'dev.recourse/idempotency': { argument: 'idempotencyKey', ttlMs: 60_000 } }),
    ).toBe('idempotencyKey');
  });

  it('finds none in a missing, foreign or malformed entry', () => {
    expect(idempotencyArgumentOf(undefined)).toBeUndefined();
    expect(idempotencyArgumentOf({})).toBeUndefined();
    expect(idempotencyArgumentOf({ 'other.example/idempotency': { argument: 'key' } })).toBeUndefined();
    expect(idempotencyArgumentOf({ 'dev.recourse/idempotency': 'idempotencyKey' })).toBeUndefined();
    expect(idempotencyArgumentOf({ 'dev.recourse/idempotency': { argument: '' } })).toBeUndefined();
    expect(idempotencyArgumentOf({ 'dev.recourse/idempotency': { argument: 7 } })).toBeUndefined();
  });
});
