/**
 * A child logger made only when something is logged through it.
 *
 * @packageDocumentation
 */
import type { Logger, LogMethod } from './logger.ts';

/**
 * Returns a logger that behaves as `parent.child(bindings)`, but calls `parent.child` only when one of its
 * methods is first used. A call binds its correlation id and tool to a logger that, on most calls, logs nothing
 * (or only below the configured level); building a pino child costs a few microseconds and an allocation of
 * serialized bindings that such a call need not pay.
 */
export function lazyChildLogger(parent: Logger, bindings: Record<string, unknown>): Logger {
  let child: Logger | undefined;
  const real = (): Logger => (child ??= parent.child(bindings));
  const level =
    (name: 'error' | 'warn' | 'info' | 'debug'): LogMethod =>
    (fieldsOrMessage: object | string, message?: string): void => {
      const target = real();
      if (typeof fieldsOrMessage === 'string') target[name](fieldsOrMessage);
      else target[name](fieldsOrMessage, message);
    };
  return {
    child: (more) => real().child(more),
    error: level('error'),
    warn: level('warn'),
    info: level('info'),
    debug: level('debug'),
  };
}
