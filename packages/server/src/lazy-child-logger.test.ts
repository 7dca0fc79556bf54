import { describe, expect, it } from 'vitest';
import type { Logger } from './logger.ts';
import { lazyChildLogger } from './lazy-child-logger.ts';

function recordingLogger(lines: unknown[][], bound: Record<string, unknown> = {}, made = { children: 0 }) {
  const at =
    (level: string) =>
    (...args: unknown[]): void => {
      lines.push([level, bound, ...args]);
    };
  const logger: Logger = {
    child: (bindings) => {
      made.children += 1;
      return recordingLogger(lines, { ...bound, ...bindings }, made).logger;
    },
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
  };
  return { logger, made };
}

describe('lazyChildLogger', () => {
  it('makes no child until something is logged', () => {
    const { logger, made } = recordingLogger([]);
    lazyChildLogger(logger, { correlationId: 'c_1' });
    expect(made.children).toBe(0);
  });

  it('logs through one child with the bindings, whatever the form of the call', () => {
    const lines: unknown[][] = [];
    const { logger, made } = recordingLogger(lines);
    const lazy = lazyChildLogger(logger, { correlationId: 'c_1', tool: 'tasks_get' });
    lazy.info('plain');
    lazy.warn({ code: 'X' }, 'with fields');
    lazy.child({ step: 'late' }).error('nested');
    expect(made.children).toBe(2);
    expect(lines).toEqual([
      ['info', { correlationId: 'c_1', tool: 'tasks_get' }, 'plain'],
      ['warn', { correlationId: 'c_1', tool: 'tasks_get' }, { code: 'X' }, 'with fields'],
      ['error', { correlationId: 'c_1', tool: 'tasks_get', step: 'late' }, 'nested'],
    ]);
  });
});
