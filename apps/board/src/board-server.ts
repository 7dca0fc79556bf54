/**
 * `createBoardServer`: opens and migrates the board database and wires the services, the tools and the kit's
 * stores into a Recourse server, for the CLI and for tests.
 *
 * @packageDocumentation
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { pino, type Logger } from 'pino';
import {
  createRecourseServer,
  type RecourseServerInstance,
  type RateLimitOptions,
  type TokenVerifier,
} from '@recourse/server';
import { boardPermissions } from './domain/roles.ts';
import { createSqliteCallLog, type SqliteCallLog } from './kit/call-log.sqlite.ts';
import { createSqliteIdempotencyStore, type SqliteIdempotencyStore } from './kit/idempotency-store.sqlite.ts';
import { sqliteRateLimitStoreFactory } from './kit/rate-limit-store.sqlite.ts';
import { createBoardServices, type BoardServices } from './services/board-services.ts';
import type { BoardStore } from './store/board-store.ts';
import { createSqliteBoardStore } from './store/board-store.sqlite.ts';
import { createSerialLock } from './store/serial-lock.ts';
import { migrate } from './store/migrations.sqlite.ts';
import { DATABASE_FILE, openDatabase } from './store/open-database.sqlite.ts';
import { boardTools } from './tools/board-tools.ts';

/** The board's name and version as reported to MCP clients. */
export const BOARD_NAME = 'recourse-board';
/** The board's version. */
export const BOARD_VERSION = '0.1.0';

/** What the board tells a model when it connects. */
export const BOARD_INSTRUCTIONS =
  'Recourse Board is a task board shared by people and AI assistants. Find tasks with tasks_search, read one ' +
  'with tasks_get, and change it with tasks_update (text fields, needs the current version), tasks_move ' +
  '(status) or tasks_assign. Call whoami to see your role and what it allows.';

/** Options of {@link createBoardServer}: a data directory or an open database. */
export interface BoardServerOptions {
  /** Directory holding `board.sqlite`; created when missing. Ignored when `db` is given. */
  readonly dataDir?: string;
  /** An open database (e.g. `openDatabase(':memory:')`); migrated here. Closed by `close()`. */
  readonly db?: Database;
  /** Wraps the SQLite store, e.g. with a slow or faulty decorator in tests. */
  readonly wrapStore?: (store: BoardStore) => BoardStore;
  /** Where the pipeline logs (default: pino to stderr, level info). */
  readonly logger?: Logger;
  /** Per-member rate limits (default 120 calls a minute), stored in the database unless a factory is given. */
  readonly rateLimit?: RateLimitOptions;
  /** Default tool deadline in ms (default: the kit's, 10 000). */
  readonly defaultDeadlineMs?: number;
  /** Clock for writes and token expiry (default: the system clock). */
  readonly now?: () => Date;
}

/** A running board: the Recourse server for the hosts, the token verifier, the services and the kit's stores. */
export interface BoardServer {
  readonly server: RecourseServerInstance;
  readonly verifier: TokenVerifier;
  readonly services: BoardServices;
  readonly db: Database;
  readonly callLog: SqliteCallLog;
  readonly idempotency: SqliteIdempotencyStore;
  /** Closes the store and the database. */
  close(): Promise<void>;
}

/** Opens the database of `dataDir` (creating the directory) or takes `db`, and migrates it. */
export function openBoardDatabase(options: Pick<BoardServerOptions, 'dataDir' | 'db'>): Database {
  let db = options.db;
  if (db === undefined) {
    const dir = options.dataDir ?? '.data';
    mkdirSync(dir, { recursive: true });
    db = openDatabase(join(dir, DATABASE_FILE));
  }
  migrate(db);
  return db;
}

/**
 * Creates the board server. The database is opened (from `dataDir`, default `.data`) or taken from `db`, and
 * migrated; idempotency records, the call log and rate-limit counts live in the same database.
 */
export function createBoardServer(options: BoardServerOptions = {}): BoardServer {
  const db = openBoardDatabase(options);
  // One connection, one writer at a time: the store's transactions stay open across awaits, so the kit's
  // stores write inside the same lock.
  const lock = createSerialLock();
  const sqliteStore = createSqliteBoardStore(db, { lock });
  const store = options.wrapStore ? options.wrapStore(sqliteStore) : sqliteStore;
  const services = createBoardServices(store, options.now === undefined ? {} : { now: options.now });
  const callLog = createSqliteCallLog(db, { lock });
  const idempotency = createSqliteIdempotencyStore(db, { lock });
  const logger = options.logger ?? pino({ name: BOARD_NAME }, pino.destination(2));
  const server = createRecourseServer({
    name: BOARD_NAME,
    version: BOARD_VERSION,
    instructions: BOARD_INSTRUCTIONS,
    tools: boardTools(services),
    permissions: boardPermissions,
    logger,
    ...(options.defaultDeadlineMs === undefined ? {} : { defaultDeadlineMs: options.defaultDeadlineMs }),
    rateLimit: { storeFactory: sqliteRateLimitStoreFactory(db, { lock }), ...options.rateLimit },
    idempotency: { store: idempotency },
    callLog,
  });
  return {
    server,
    verifier: services.tokens.verifier(),
    services,
    db,
    callLog,
    idempotency,
    async close() {
      await store.close();
      if (db.open) db.close();
    },
  };
}
