/**
 * A child logger made only when something is logged through it.
 *
 * @packageDocumentation
 */
import type { Logger, LogMethod } from './logger.ts';

/**
 * Returns a logger that behaves as `parent.child(bindings)`, but calls `parent.child` only when one of its
 * methods is first used for a level the parent logs (when the parent says, as pino's `isLevelEnabled` does). A call binds its correlation id and tool to a logger that, on most calls, logs nothing
 * (or only below the configured level); building a pino child costs a few microseconds and an allocation of
 * serialized bindings that such a call need not pay.
 */
export function lazyChildLogger(parent: Logger, bindings: Record<string, unknown>): Logger {
  let child: Logger | undefined;
  const real = (): Logger => (child ??= parent.child(bindings));
  // pino's own check: a line below the configured level makes no child either (the child has the parent's level).
  const enabled = (parent as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.bind(parent);
  const level =
    (name: 'error' | 'warn' | 'info' | 'debug'): LogMethod =>
    (fieldsOrMessage: object | string, message?: string): void => {
      if (child === undefined && enabled?.(name) === false) return;
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
