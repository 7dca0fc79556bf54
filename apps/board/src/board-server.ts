/**
 * `createBoardServer`: opens and migrates the board's SQLite database and wires the services, the tools and the
 * kit's stores into a Recourse server, for the CLI and for tests. (PostgreSQL: `board-server.pg.ts`.)
 *
 * @packageDocumentation
 */
import type { Database } from 'better-sqlite3';
import { pino, type Logger } from 'pino';
import {
  createRecourseServer,
  type CallObserver,
  type IdempotencyStore,
  type ReadinessCheck,
  type RateLimitOptions,
  type RateLimitStoreFactory,
  type RecourseServerInstance,
  type TaskStore,
  type TokenVerifier,
} from '@recourse/server';
import { boardPermissions } from './domain/roles.ts';
import type { BoardCallLog } from './kit/call-log.ts';
import { createSqliteCallLog } from './kit/call-log.sqlite.ts';
import { createSqliteIdempotencyStore } from './kit/idempotency-store.sqlite.ts';
import { sqliteRateLimitStoreFactory } from './kit/rate-limit-store.sqlite.ts';
import { createSqliteTaskStore } from './kit/task-store.sqlite.ts';
import { createBoardServices, type BoardServices } from './services/board-services.ts';
import type { BoardStore } from './store/board-store.ts';
import { createSqliteBoardStore } from './store/board-store.sqlite.ts';
import { migrate, pendingMigrations } from './store/migrations.sqlite.ts';
import { databaseReadiness } from './kit/database-readiness.ts';
import { openDataDirectory } from './store/data-directory.sqlite.ts';
import { guardDatabaseFile } from './store/database-file-guard.ts';
import { createSerialLock } from './store/serial-lock.ts';
import { boardTools } from './tools/board-tools.ts';
import { BOARD_GUIDANCE } from './domain/board-guidance.ts';
import type { OAuthStore } from './oauth/oauth-store.ts';
import { createSqliteOAuthStore } from './oauth/oauth-store.sqlite.ts';
import { createMemberAccounts, type MemberAccounts } from './oauth/member-accounts.ts';
import { createOAuthGrants, type OAuthGrants } from './oauth/oauth-grants.ts';
import type { ImportSourceOptions } from './tools/import-source.ts';

/** The board's name as reported to MCP clients. */
export const BOARD_NAME = 'recourse-board';
/** The board's version. */
export const BOARD_VERSION = '0.1.0';

/** What the board tells a model when it connects. */
export const BOARD_INSTRUCTIONS =
  'Recourse Board is a task board shared by people and AI assistants. Find tasks with tasks_search, read one ' +
  'with tasks_get, and change it with tasks_update (text fields, needs the current version), tasks_move ' +
  '(status) or tasks_assign. Call whoami to see your role and what it allows.';

/** Options every board server takes, whatever its database. */
export interface BoardServerOptions {
  /** Wraps the store, e.g. with a slow or faulty decorator in tests. */
  readonly wrapStore?: (store: BoardStore) => BoardStore;
  /** Where the pipeline logs (default: pino to stderr, level info). */
  readonly logger?: Logger;
  /** Per-member rate limits (default 120 calls a minute), stored in the database unless a factory is given. */
  readonly rateLimit?: RateLimitOptions;
  /** Default tool deadline in ms (default: the kit's, 10 000). */
  readonly defaultDeadlineMs?: number;
  /** Clock for writes and token expiry (default: the system clock). */
  readonly now?: () => Date;
  /**
   * Tasks extension: kept `ttlMs` (default 1 h) after creation, `pollIntervalMs` suggested (default 1000), and
   * `leaseMs` (default 15 s) within which a task whose instance died is failed.
   */
  readonly tasks?: { readonly ttlMs?: number; readonly pollIntervalMs?: number; readonly leaseMs?: number };
  /** Told when each tool call starts and finishes (e.g. the Prometheus metrics of `serve`); default none. */
  readonly observer?: CallObserver;
  /** Told about each database error, by kind (`query` or `connection`); PostgreSQL only; default none. */
  readonly onDatabaseError?: (kind: 'query' | 'connection') => void;
  /** Limits of reading a `tasks_import` source URL (default: answered within 10 s, at most 5 MiB). */
  readonly importSource?: ImportSourceOptions;
}

/** Options of {@link createBoardServer}: a data directory or an open SQLite database. */
export interface SqliteBoardServerOptions extends BoardServerOptions {
  /** Directory holding `board.sqlite`; created when missing (default `.data`). Ignored when `db` is given. */
  readonly dataDir?: string;
  /** An open database (e.g. `openDatabase(':memory:')`); migrated here. Closed by `close()`. */
  readonly db?: Database;
}

/** A running board: the Recourse server for the hosts, the token verifier, the services and the kit's stores. */
export interface BoardServer {
  readonly server: RecourseServerInstance;
  readonly verifier: TokenVerifier;
  readonly services: BoardServices;
  readonly callLog: BoardCallLog;
  readonly idempotency: IdempotencyStore;
  /** Where tasks-extension tasks live (same database), shared by every instance on PostgreSQL. */
  readonly taskStore: TaskStore;
  /** What `/readyz` checks: the database answers and its schema is current. */
  readonly readiness: readonly ReadinessCheck[];
  /** The OAuth authorization server's records, grants, passwords and sign-in links. */
  readonly oauthStore: OAuthStore;
  /** Passwords and one-time sign-in links of people. */
  readonly accounts: MemberAccounts;
  /** The grants people approved for OAuth clients. */
  readonly grants: OAuthGrants;
  /** Fails the tasks still running here, then closes the store and the database. */
  close(): Promise<void>;
}

/** A board on SQLite; `db` is its open database. */
export interface SqliteBoardServer extends BoardServer {
  readonly db: Database;
}

/** The database-specific parts {@link assembleBoardServer} wires together. */
export interface BoardParts {
  readonly store: BoardStore;
  readonly callLog: BoardCallLog;
  readonly idempotency: IdempotencyStore;
  readonly rateLimitStore: RateLimitStoreFactory;
  readonly taskStore: TaskStore;
  /** Writes what the kit's stores hold back (e.g. rate-limit counts); runs after the call log is flushed. */
  readonly flushKit?: () => Promise<void>;
  /** The database's readiness check. */
  readonly readiness: ReadinessCheck;
  readonly oauthStore: OAuthStore;
  /** Releases what the parts hold beyond the store (e.g. the database handle). */
  readonly closeResources: () => Promise<void>;
}

/** Wires the services, the tools and the kit's stores into a board server. */
export function assembleBoardServer(parts: BoardParts, options: BoardServerOptions): BoardServer {
  const store = options.wrapStore ? options.wrapStore(parts.store) : parts.store;
  const services = createBoardServices(store, options.now === undefined ? {} : { now: options.now });
  const logger = boardLogger(options);
  const server = createRecourseServer({
    name: BOARD_NAME,
    version: BOARD_VERSION,
    instructions: BOARD_INSTRUCTIONS,
    tools: boardTools(
      services,
      options.importSource === undefined ? {} : { importSource: options.importSource },
    ),
    permissions: boardPermissions,
    guidance: BOARD_GUIDANCE,
    logger,
    ...(options.defaultDeadlineMs === undefined ? {} : { defaultDeadlineMs: options.defaultDeadlineMs }),
    rateLimit: { storeFactory: parts.rateLimitStore, ...options.rateLimit },
    idempotency: { store: parts.idempotency },
    callLog: parts.callLog,
    tasks: { store: parts.taskStore, ...options.tasks },
    ...(options.observer === undefined ? {} : { observer: options.observer }),
    // stdio verifies RECOURSE_TOKEN once; this checks its token and member again on every call.
    recheckPrincipal: services.tokens.recheck(),
  });
  return {
    server,
    verifier: services.tokens.verifier(),
    services,
    callLog: parts.callLog,
    idempotency: parts.idempotency,
    taskStore: parts.taskStore,
    readiness: [parts.readiness],
    oauthStore: parts.oauthStore,
    accounts: createMemberAccounts(
      store,
      parts.oauthStore,
      options.now === undefined ? {} : { now: options.now },
    ),
    grants: createOAuthGrants(parts.oauthStore, options.now === undefined ? {} : { now: options.now }),
    async close() {
      await server.close();
      // The buffered call log and rate-limit counts are written before the store closes the database.
      await parts.callLog.close();
      await parts.flushKit?.();
      await store.close();
      await parts.closeResources();
    },
  };
}

/** The logger of a board: `options.logger`, or pino to stderr at level info. */
export function boardLogger(options: Pick<BoardServerOptions, 'logger'>): Logger {
  return options.logger ?? pino({ name: BOARD_NAME }, pino.destination(2));
}

/** Logs a failed write of the kit's buffered entries (they are lost; calls are not affected). */
export function kitWriteFailed(logger: Logger, what: string): (error: unknown, lost?: number) => void {
  return (error, lost) => logger.warn({ err: error, lost }, `${what} could not be written`);
}

/**
 * Opens the database of `dataDir` (see {@link openDataDirectory}: created on a first start, checked otherwise)
 * or takes `db`, and migrates it.
 *
 * @throws {@link DataDirectoryError} when the data directory holds a board whose database is missing,
 *   unreadable or damaged.
 */
export function openBoardDatabase(options: Pick<SqliteBoardServerOptions, 'dataDir' | 'db'>): Database {
  if (options.db === undefined) return openDataDirectory(options.dataDir ?? '.data');
  migrate(options.db);
  return options.db;
}

/**
 * Creates the board server on SQLite. The database is opened (from `dataDir`, default `.data`) or taken from
 * `db`, and migrated; idempotency records, the call log and rate-limit counts live in the same database.
 */
export function createBoardServer(options: SqliteBoardServerOptions = {}): SqliteBoardServer {
  const db = openBoardDatabase(options);
  const logger = boardLogger(options);
  // A database file deleted or replaced while the board runs refuses every call (and is rescued once).
  const guard =
    options.db === undefined ? guardDatabaseFile(db, options.dataDir ?? '.data', logger) : undefined;
  // One connection, one writer at a time: the store's transactions stay open across awaits, so the kit's
  // stores write inside the same lock.
  const lock = createSerialLock(guard === undefined ? {} : { beforeTurn: () => guard.check() });
  const rateLimitStore = sqliteRateLimitStoreFactory(db, {
    lock,
    onError: kitWriteFailed(logger, 'rate-limit counts'),
  });
  const board = assembleBoardServer(
    {
      store: createSqliteBoardStore(db, { lock }),
      callLog: createSqliteCallLog(db, {
        lock,
        buffer: { onError: kitWriteFailed(logger, 'call-log entries') },
      }),
      idempotency: createSqliteIdempotencyStore(db, { lock }),
      rateLimitStore,
      flushKit: () => rateLimitStore.close(),
      taskStore: createSqliteTaskStore(db, { lock }),
      readiness: databaseReadiness(() => pendingMigrations(db)),
      oauthStore: createSqliteOAuthStore(db, { lock }),
      closeResources: () => {
        if (db.open) db.close();
        return Promise.resolve();
      },
    },
    { ...options, logger },
  );
  return {
    ...board,
    db,
    async close() {
      const gone = await guard?.report();
      try {
        await board.close();
      } catch (error) {
        // Closing writes (failing the tasks still running); with the file gone that fails as every call did.
        if (gone === undefined) throw error;
      } finally {
        if (db.open) db.close();
      }
      if (gone !== undefined) throw new Error(gone);
    },
  };
}
