/**
 * Counts the errors of a `pg` pool for the metrics: failed queries (on the pool and on checked-out clients) and
 * connection errors, without changing what the callers see.
 *
 * @packageDocumentation
 */
import type pg from 'pg';

/** What kind of database error happened: a query failed, or a connection broke or could not be opened. */
export type DatabaseErrorKind = 'query' | 'connection';

type AnyQuery = (...args: unknown[]) => unknown;

function isThenable(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Wraps `target[method]` so that each failure (promise or callback style) is reported as `kind` before it is
 * passed on unchanged.
 */
function watchMethod(
  target: object,
  method: 'query' | 'connect',
  kind: DatabaseErrorKind,
  report: (kind: DatabaseErrorKind) => void,
): void {
  const holder = target as Record<string, unknown>;
  const original = (holder[method] as AnyQuery).bind(target);
  holder[method] = ((...args: unknown[]) => {
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (error: unknown, ...rest: unknown[]) => {
        if (error) report(kind);
        return (last as AnyQuery)(error, ...rest);
      };
      return original(...args);
    }
    const out = original(...args);
    if (!isThenable(out)) return out;
    return out.catch((error: unknown) => {
      report(kind);
      throw error;
    });
  }) satisfies AnyQuery;
}

/**
 * Reports every failed query and connection error of `pool` to `report`, each once. Every query runs on a
 * client of the pool (also `pool.query`), so the clients' `query` is watched, and the pool's `connect`.
 * Errors still reach their callers unchanged; idle-client errors, which `pg` would otherwise raise as an
 * uncaught `error` event, are only reported (the pool drops that client and opens another on demand).
 */
export function watchPoolErrors(pool: pg.Pool, report: (kind: DatabaseErrorKind) => void): void {
  watchMethod(pool, 'connect', 'connection', report);
  pool.on('connect', (client) => {
    watchMethod(client, 'query', 'query', report);
  });
  pool.on('error', () => report('connection'));
}
