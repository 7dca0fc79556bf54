import { describe, expect, it } from 'vitest';
import { createInflightRegistry } from './inflight-registry.ts';

function recorder() {
  const reasons: string[] = [];
  return { reasons, call: { cancel: (reason: string) => reasons.push(reason) } };
}

describe('createInflightRegistry', () => {
  it('cancels a registered call by member and request id until it is removed', () => {
    const registry = createInflightRegistry();
    const a = recorder();
    const remove = registry.register('m_1', 7, a.call);
    expect(registry.size).toBe(1);
    expect(registry.cancel('m_2', 7, 'x')).toBe(false);
    expect(registry.cancel('m_1', '7', 'x')).toBe(false);
    expect(registry.cancel('m_1', 7, 'stop')).toBe(true);
    expect(a.reasons).toEqual(['stop']);
    remove();
    remove();
    expect(registry.size).toBe(0);
    expect(registry.cancel('m_1', 7, 'again')).toBe(false);
  });

  it('cancels nothing when two running calls of one member share a request id', () => {
    const registry = createInflightRegistry();
    const a = recorder();
    const b = recorder();
    registry.register('m_1', 1, a.call);
    const removeB = registry.register('m_1', 1, b.call);
    expect(registry.cancel('m_1', 1, 'stop')).toBe(false);
    expect([...a.reasons, ...b.reasons]).toEqual([]);
    removeB();
    expect(registry.cancel('m_1', 1, 'stop')).toBe(true);
    expect(a.reasons).toEqual(['stop']);
  });
});
