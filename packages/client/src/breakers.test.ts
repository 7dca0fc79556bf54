import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRecourseClient } from './index.ts';
import type { RecourseClient } from './index.ts';
import { createFaultState, inMemoryFaultTarget } from './testing/index.ts';
import type { FaultServerState } from './testing/index.ts';
import { isBreakerFault } from './breakers.ts';
import { LocalCallError, ProtocolCallError } from './errors.ts';

describe('circuit breaker per tool (fake timers)', () => {
  let state: FaultServerState;
  let client: RecourseClient;
  let events: string[];

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    state = createFaultState();
    client = createRecourseClient({
      target: inMemoryFaultTarget(state),
      protocol: 'legacy',
      retry: { maxAttempts: 1 },
      breaker: { threshold: 3, halfOpenAfterMs: 5000 },
    });
    events = [];
    for (const name of ['break', 'half_open', 'reset'] as const)
      client.on(name, (e) => events.push(`${name}:${e.tool}`));
  });
  afterEach(async () => {
    await client.close();
    vi.useRealTimers();
  });

  it('opens after the configured transient failures, fails fast without reaching the server, then half-opens and closes', async () => {
    for (let i = 0; i < 3; i++) state.script.push('echo', { kind: 'tool_failure', category: 'transient' });
    for (let i = 0; i < 3; i++) {
      const outcome = await client.tryCallTool('echo', { text: 'x' });
      expect(outcome.ok || outcome.error.code).toBe('CALL_TOOL_FAILED');
    }
    expect(client.breakerState('echo')).toBe('open');
    expect(events).toEqual(['break:echo']);

    const fast = await client.tryCallTool('echo', { text: 'x' });
    expect(fast.ok).toBe(false);
    if (fast.ok) return;
    expect(fast.error.code).toBe('CALL_CIRCUIT_OPEN');
    expect(fast.error.kind).toBe('local');
    expect(fast.error.message).toMatch(/A trial call is let through 5000 ms after the breaker opened/);
    expect(fast.error.attempts).toEqual([]);
    expect(state.executions).toHaveLength(0);

    // another tool of the same server is not affected
    await expect(client.callTool('search', { query: 'q' })).resolves.toMatchObject({ tool: 'search' });

    await vi.advanceTimersByTimeAsync(5001);
    const trial = await client.callTool('echo', { text: 'back' });
    expect(trial.result.content).toEqual([{ type: 'text', text: 'back' }]);
    expect(client.breakerState('echo')).toBe('closed');
    expect(events).toEqual(['break:echo', 'half_open:echo', 'reset:echo']);
  });

  it('opens again when the half-open trial fails', async () => {
    for (let i = 0; i < 4; i++) state.script.push('echo', { kind: 'tool_failure', category: 'internal' });
    for (let i = 0; i < 3; i++) await client.tryCallTool('echo', { text: 'x' });
    await vi.advanceTimersByTimeAsync(5001);
    const trial = await client.tryCallTool('echo', { text: 'x' });
    expect(trial.ok || trial.error.code).toBe('CALL_TOOL_FAILED');
    expect(client.breakerState('echo')).toBe('open');
  });

  it('refuses other calls while the trial call runs, without reaching the server, and closes on its success', async () => {
    for (let i = 0; i < 3; i++) state.script.push('echo', { kind: 'tool_failure', category: 'transient' });
    for (let i = 0; i < 3; i++) await client.tryCallTool('echo', { text: 'x' });
    await vi.advanceTimersByTimeAsync(5001);
    state.script.push('echo', { kind: 'latency', ms: 1000 });
    const trial = client.callTool('echo', { text: 'trial' });
    await vi.advanceTimersByTimeAsync(10);
    expect(client.breakerState('echo')).toBe('half_open');
    const refused = await client.tryCallTool('echo', { text: 'meanwhile' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('CALL_CIRCUIT_OPEN');
    expect(refused.error.message).toMatch(/a trial call is running/);
    expect(refused.error.message).toMatch(/Nothing was sent and nothing was changed\. Retry when the trial/);
    expect(refused.error.attempts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(trial).resolves.toMatchObject({ tool: 'echo' });
    expect(state.executions.map((e) => e.args['text'])).toEqual(['trial']);
    expect(client.breakerState('echo')).toBe('closed');
    await expect(client.callTool('echo', { text: 'after' })).resolves.toMatchObject({ tool: 'echo' });
  });

  it('closes when the trial fails for a reason that says nothing about a sick tool, and counts afresh', async () => {
    for (let i = 0; i < 3; i++) state.script.push('echo', { kind: 'tool_failure', category: 'transient' });
    for (let i = 0; i < 3; i++) await client.tryCallTool('echo', { text: 'x' });
    await vi.advanceTimersByTimeAsync(5001);
    state.script.push('echo', { kind: 'tool_failure', category: 'validation' });
    const trial = await client.tryCallTool('echo', { text: 'x' });
    expect(trial.ok || trial.error.code).toBe('CALL_TOOL_FAILED');
    expect(client.breakerState('echo')).toBe('closed');
    // The count starts again: two faults do not open it, the third does.
    for (let i = 0; i < 3; i++) state.script.push('echo', { kind: 'tool_failure', category: 'internal' });
    for (let i = 0; i < 2; i++) await client.tryCallTool('echo', { text: 'x' });
    expect(client.breakerState('echo')).toBe('closed');
    await client.tryCallTool('echo', { text: 'x' });
    expect(client.breakerState('echo')).toBe('open');
    expect(events).toEqual(['break:echo', 'half_open:echo', 'reset:echo', 'break:echo']);
  });

  it('never opens on validation, business, not-found or permission failures', async () => {
    const categories = [
      'validation',
      'business',
      'not_found',
      'permission',
      'conflict',
      'rate_limit',
    ] as const;
    for (const category of categories)
      state.script.push('echo', { kind: 'tool_failure', category }, { kind: 'tool_failure', category });
    for (let i = 0; i < categories.length * 2; i++) {
      const outcome = await client.tryCallTool('echo', { text: 'x' }, { retry: { maxAttempts: 1 } });
      expect(outcome.ok || outcome.error.code).toBe('CALL_TOOL_FAILED');
    }
    expect(client.breakerState('echo')).toBe('closed');
    expect(events).toEqual([]);
    await expect(client.callTool('echo', { text: 'still fine' })).resolves.toMatchObject({ tool: 'echo' });
  });
});

describe('isBreakerFault', () => {
  const base = { server: 's', tool: 't', message: 'm' };
  it('counts transport faults, timeouts and internal protocol errors, but not cancellations or refusals', () => {
    expect(isBreakerFault(new LocalCallError({ ...base, reason: 'transport' }))).toBe(true);
    expect(isBreakerFault(new LocalCallError({ ...base, reason: 'timeout' }))).toBe(true);
    expect(isBreakerFault(new LocalCallError({ ...base, reason: 'cancelled' }))).toBe(false);
    expect(isBreakerFault(new ProtocolCallError({ ...base, rpcCode: -32603 }))).toBe(true);
    expect(isBreakerFault(new ProtocolCallError({ ...base, rpcCode: -32602 }))).toBe(false);
    expect(isBreakerFault(new ProtocolCallError({ ...base, rpcCode: -31429, httpStatus: 429 }))).toBe(false);
    expect(isBreakerFault(new Error('plain'))).toBe(false);
  });
});
