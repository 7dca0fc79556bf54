import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/client';
import { chooseVersion } from './connection.ts';
import { PolicyEvents } from './policy-events.ts';
import { ToolCatalog, traitsOf } from './tool-catalog.ts';

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  inputSchema: { type: 'object' },
  ...extra,
});

describe('tool traits', () => {
  it('reads hints and the advertised idempotency argument', () => {
    expect(traitsOf(tool('a', { annotations: { readOnlyHint: true } }))).toEqual({
      readOnly: true,
      idempotent: false,
    });
    expect(
      traitsOf(
        tool('b', { _meta: { 'dev.recourse/idempotency': { argument: 'idempotencyKey', ttlMs: 1 } } }),
      ),
    ).toEqual({
      readOnly: false,
      idempotent: false,
      idempotencyArgument: 'idempotencyKey',
    });
  });

  it('lists once, lets overrides win, and treats tools as unsafe when listing fails', async () => {
    let loads = 0;
    const catalog = new ToolCatalog(
      () => {
        loads++;
        return Promise.resolve([tool('get', { annotations: { readOnlyHint: true } }), tool('write')]);
      },
      { write: { idempotent: true } },
    );
    expect(await catalog.traits('get', 1000)).toMatchObject({ readOnly: true });
    expect(await catalog.traits('write', 1000)).toMatchObject({ idempotent: true });
    expect(await catalog.traits('unknown', 1000)).toEqual({});
    expect(loads).toBe(1);
    const failing = new ToolCatalog(() => Promise.reject(new Error('down')));
    expect(await failing.traits('get', 1000)).toEqual({});
  });

  it("stops waiting for a listing that never ends when the caller's signal aborts, and tries again later", async () => {
    let seen: AbortSignal | undefined;
    let loads = 0;
    const catalog = new ToolCatalog((signal) => {
      loads++;
      seen = signal;
      return loads === 1 ? new Promise<never>(() => undefined) : Promise.resolve([tool('get')]);
    });
    const controller = new AbortController();
    const pending = catalog.traits('get', 60_000, controller.signal);
    controller.abort();
    expect(await pending).toEqual({});
    expect(seen?.aborted).toBe(true); // the listing request itself is told to stop
    expect(await catalog.traits('get', 1000)).toEqual({ readOnly: false, idempotent: false });
    expect(loads).toBe(2);
  });
});

describe('chooseVersion', () => {
  it('picks the newest supported version this client speaks', () => {
    expect(chooseVersion(['2025-06-18', '2026-07-28'])).toBe('2026-07-28');
    expect(chooseVersion(['2025-03-26', '2025-11-25', '2099-01-01'])).toBe('2025-11-25');
    expect(chooseVersion(['1999-01-01', 42])).toBeUndefined();
  });
});

describe('PolicyEvents', () => {
  it('delivers events to subscribers until they unsubscribe, and survives a throwing listener', () => {
    const events = new PolicyEvents();
    const seen: string[] = [];
    events.on('break', () => {
      throw new Error('listener bug');
    });
    const off = events.on('break', (e) => seen.push(e.tool));
    events.emit('break', { server: 's', tool: 'a' });
    off();
    events.emit('break', { server: 's', tool: 'b' });
    expect(seen).toEqual(['a']);
  });
});
