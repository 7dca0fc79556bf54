import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
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

  it('makes no child for a line below the level of a parent that can say so, as pino can', () => {
    const lines: unknown[][] = [];
    const { logger, made } = recordingLogger(lines);
    const leveled = { ...logger, isLevelEnabled: (level: string) => level === 'warn' || level === 'error' };
    const lazy = lazyChildLogger(leveled, { correlationId: 'c_2' });
    lazy.info({ code: 'TASK_NOT_FOUND' }, 'tool call refused');
    expect(made.children).toBe(0);
    lazy.warn('tool call missed its deadline');
    expect(made.children).toBe(1);
    expect(lines).toEqual([['warn', { correlationId: 'c_2' }, 'tool call missed its deadline']]);
  });

  it('logs what a real pino logger at warn is given at warn, and nothing at info', () => {
    const written: string[] = [];
    const parent = pino({ level: 'warn' }, { write: (line: string) => void written.push(line) });
    const lazy = lazyChildLogger(parent, { correlationId: 'c_3', tool: 'tasks_get' });
    lazy.info('tool call refused');
    lazy.warn({ changed: false }, 'tool call missed its deadline');
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({
      correlationId: 'c_3',
      tool: 'tasks_get',
      changed: false,
      msg: 'tool call missed its deadline',
    });
  });
});
