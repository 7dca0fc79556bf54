import { describe, expect, it } from 'vitest';
import { createDrainGate, drainingRefusal } from './drain-gate.ts';

describe('createDrainGate', () => {
  it('counts requests, counts a double leave once, and wakes idle() when the last one leaves', async () => {
    const gate = createDrainGate();
    expect(await gate.idle(10)).toBe(true);
    const first = gate.enter();
    const second = gate.enter();
    expect(gate.active).toBe(2);
    gate.begin();
    expect(gate.draining).toBe(true);
    const idle = gate.idle(5000);
    first();
    first();
    expect(gate.active).toBe(1);
    second();
    expect(await idle).toBe(true);
  });

  it('answers false when requests are still running at the timeout', async () => {
    const gate = createDrainGate();
    const leave = gate.enter();
    expect(await gate.idle(20)).toBe(false);
    leave();
  });
});

describe('drainingRefusal', () => {
  it('is a 503 with Retry-After, Connection: close and a message saying nothing changed', () => {
    const refusal = drainingRefusal(1);
    expect(refusal).toMatchObject({
      status: 503,
      code: -31503,
      headers: { 'retry-after': '1', connection: 'close' },
    });
    expect(refusal.message).toContain('shutting down');
    expect(refusal.message).toContain('Nothing was changed.');
  });
});
