/**
 * Opens the board's SQLite database file with the settings every part of the board relies on.
 *
 * @packageDocumentation
 */
import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';

/** The database file name inside a data directory. */
export const DATABASE_FILE = 'board.sqlite';

/**
 * Opens (creating if needed) the SQLite database at `file` (`:memory:` for a private in-memory one) with WAL
 * journaling, `synchronous = FULL` and foreign keys on. The busy timeout is 0: a database locked by another
 * process fails at once instead of blocking the event loop, and the board's stores wait it out asynchronously
 * (`retryWhileBusy`). Does not migrate: call `migrate(db)`.
 *
 * `synchronous = FULL` (chosen, not inherited): every committed transaction is fsynced to the WAL before the
 * commit returns, so a board write or an idempotency result that a caller was told about survives a power loss
 * or an OS crash, not only a crash of the process (`NORMAL` would keep the database consistent but could lose
 * the last commits). Reads commit nothing, and the call log and rate-limit counts are written in batches off the
 * call path, so the fsync is paid by writes only.
 */
export function openDatabase(file: string): SqliteDatabase {
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 0');
  return db;
}
