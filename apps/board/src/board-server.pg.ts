/**
 * `createPgBoardServer`: the board on PostgreSQL, so that several stateless instances behind a load balancer
 * share tasks, members, tokens, rate limits, idempotency records and the call log.
 *
 * @packageDocumentation
 */
import pg from 'pg';
import {
  assembleBoardServer,
  boardLogger,
  kitWriteFailed,
  type BoardServer,
  type BoardServerOptions,
} from './board-server.ts';
import { createPgCallLog } from './kit/call-log.pg.ts';
import { createPgTaskStore } from './kit/task-store.pg.ts';
import { createPgIdempotencyStore } from './kit/idempotency-store.pg.ts';
import { createPgAmbientTransaction } from './kit/pg-ambient-transaction.ts';
import { pgRateLimitStoreFactory } from './kit/rate-limit-store.pg.ts';
import { createPgBoardStore } from './store/board-store.pg.ts';
import { migratePg, pendingPgMigrations } from './store/migrations.pg.ts';
import { databaseReadiness } from './kit/database-readiness.ts';
import { watchPoolErrors } from './kit/pool-errors.pg.ts';
import { createPgOAuthStore } from './oauth/oauth-store.pg.ts';

/** Options of {@link createPgBoardServer}: a connection string or a pool. */
export interface PgBoardServerOptions extends BoardServerOptions {
  /** A PostgreSQL connection string, e.g. the `DATABASE_URL` environment variable. */
  readonly databaseUrl?: string;
  /** A pool to use instead (not ended by `close()`). */
  readonly pool?: pg.Pool;
}

/** A board on PostgreSQL; `pool` is its connection pool. */
export interface PgBoardServer extends BoardServer {
  readonly pool: pg.Pool;
}

/**
 * Creates the board server on PostgreSQL: connects (pool of 10), migrates under an advisory lock, and stores
 * idempotency records, the call log and rate-limit counts in the same database. Rejects when neither
 * `databaseUrl` nor `pool` is given, or when the database cannot be reached.
 */
export async function createPgBoardServer(options: PgBoardServerOptions): Promise<PgBoardServer> {
  if (options.pool === undefined && options.databaseUrl === undefined) {
    throw Object.assign(new Error('createPgBoardServer needs databaseUrl or pool.'), {
      name: 'BoardConfigError',
      code: 'DATABASE_URL_MISSING',
    });
  }
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
  if (options.onDatabaseError !== undefined) watchPoolErrors(pool, options.onDatabaseError);
  try {
    await migratePg(pool);
  } catch (error) {
    if (ownsPool) await pool.end().catch(() => undefined);
    throw error;
  }
  const logger = boardLogger(options);
  // A keyed write and its idempotency record commit in one transaction (see createPgIdempotencyStore).
  const ambient = createPgAmbientTransaction();
  const board = assembleBoardServer(
    {
      store: createPgBoardStore(pool, { ownsPool: false, ambient }),
      callLog: createPgCallLog(pool, { onError: kitWriteFailed(logger, 'call-log entries') }),
      idempotency: createPgIdempotencyStore(pool, { ambient }),
      rateLimitStore: pgRateLimitStoreFactory(pool),
      taskStore: createPgTaskStore(pool),
      readiness: databaseReadiness(() => pendingPgMigrations(pool)),
      oauthStore: createPgOAuthStore(pool),
      closeResources: async () => {
        if (ownsPool) await pool.end();
      },
    },
    { ...options, logger },
  );
  return { ...board, pool };
}
