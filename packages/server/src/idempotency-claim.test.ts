import { describe, expect, it } from 'vitest';
import { claimOfRecord } from './idempotency-claim.ts';

const success = { text: 'Created T-1.' };

describe('claimOfRecord', () => {
  it('answers mismatch for another tool or other arguments, even when the first call finished', () => {
    expect(claimOfRecord({ tool: 'tasks_create', argsHash: 'a' }, 'tasks_update', 'a')).toEqual({
      state: 'mismatch',
    });
    expect(
      claimOfRecord({ tool: 'tasks_create', argsHash: 'a', result: success }, 'tasks_create', 'b'),
    ).toEqual({ state: 'mismatch' });
  });

  it('answers pending while the first call runs and done with its result afterwards', () => {
    expect(claimOfRecord({ tool: 'tasks_create', argsHash: 'a' }, 'tasks_create', 'a')).toEqual({
      state: 'pending',
    });
    expect(
      claimOfRecord({ tool: 'tasks_create', argsHash: 'a', result: success }, 'tasks_create', 'a'),
    ).toEqual({ state: 'done', argsHash: 'a', result: success });
  });
});
