/**
 * A data directory that knows it holds a board. The first start writes a marker file (`board.json`) beside the
 * database; from then on a missing, unreadable, empty or damaged database next to that marker stops the board
 * with {@link DataDirectoryError} instead of being taken for a first start that would create a new owner over
 * an empty board. A database found at start is opened only if SQLite's `PRAGMA quick_check` passes and its
 * write-ahead log is sound ({@link checkWriteAheadLog}).
 *
 * @packageDocumentation
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { migrate } from './migrations.sqlite.ts';
import { DATABASE_FILE, openDatabase } from './open-database.sqlite.ts';
import { checkWriteAheadLog } from './wal-check.ts';

/** The marker file a data directory gets on its first start. */
export const MARKER_FILE = 'board.json';

/** What the marker file holds. */
export interface DataDirectoryMarker {
  readonly about: string;
  readonly database: string;
  readonly initialisedAt: string;
}

/** The one sentence telling an operator how to get the board back (shared by every refusal). */
export const RESTORE_ADVICE =
  'Nothing was changed and no new owner was created. Restore the board from a backup: stop the board, move this directory aside, create it again, copy the backup file (made with "recourse-board backup FILE") to board.sqlite in it and start the board; if you have no backup and want an empty board, start it with a new --data-dir.';

/** The board refuses to open a data directory: what it found, in one paragraph without a stack. */
export class DataDirectoryError extends Error {
  override readonly name = 'DataDirectoryError';
  readonly code = 'DATA_DIRECTORY_UNUSABLE';
  constructor(
    readonly dataDir: string,
    found: string,
  ) {
    super(`The data directory ${dataDir} cannot be used: ${found} ${RESTORE_ADVICE}`);
  }
}

function readMarker(dir: string): DataDirectoryMarker | undefined {
  const file = join(dir, MARKER_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<DataDirectoryMarker>;
    return {
      about: String(parsed.about ?? ''),
      database: String(parsed.database ?? DATABASE_FILE),
      initialisedAt: String(parsed.initialisedAt ?? 'an unknown date'),
    };
  } catch {
    // A marker that cannot be read still says the directory was initialised.
    return { about: '', database: DATABASE_FILE, initialisedAt: 'an unknown date' };
  }
}

/** Writes the marker (atomically: a temporary file renamed over it). */
export function writeMarker(dir: string, at = new Date()): void {
  const marker: DataDirectoryMarker = {
    about:
      'This directory holds a Recourse Board. Do not delete it while the board runs; back it up with "recourse-board backup FILE".',
    database: DATABASE_FILE,
    initialisedAt: at.toISOString(),
  };
  const temporary = join(dir, `${MARKER_FILE}.tmp`);
  writeFileSync(temporary, `${JSON.stringify(marker, null, 2)}\n`);
  renameSync(temporary, join(dir, MARKER_FILE));
}

const sqliteReason = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : (message ?? 'unknown error');
};

/** Names the rescued copies a board left in `dir` when its database was deleted while it ran. */
function rescuedCopies(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.startsWith(`${DATABASE_FILE}.rescued-`));
  } catch {
    return [];
  }
}

function refuseMissing(dir: string, marker: DataDirectoryMarker): never {
  const rescued = rescuedCopies(dir);
  throw new DataDirectoryError(
    dir,
    `${MARKER_FILE} says this directory has held a board since ${marker.initialisedAt}, but its database ${DATABASE_FILE} is missing (deleted or moved).` +
      (rescued.length > 0
        ? ` The board saved a copy of its data when it found the database deleted while it was running: ${rescued.join(', ')}; restore that file as ${DATABASE_FILE}.`
        : ''),
  );
}

/** Opens an existing database file; every failure becomes a {@link DataDirectoryError}. */
function openExisting(dir: string, file: string, marker: DataDirectoryMarker | undefined): SqliteDatabase {
  try {
    if (!statSync(file).isFile()) throw new Error('it is not a regular file');
    // Fails early and clearly when the file cannot be read and written (SQLite would fail later, less clearly).
    closeSync(openSync(file, 'r+'));
  } catch (error) {
    throw new DataDirectoryError(
      dir,
      `its database ${DATABASE_FILE} cannot be opened (${sqliteReason(error)}).`,
    );
  }
  const walProblem = checkWriteAheadLog(`${file}-wal`);
  if (walProblem !== undefined) {
    throw new DataDirectoryError(dir, `the write-ahead log ${DATABASE_FILE}-wal is damaged: ${walProblem}.`);
  }
  let db: SqliteDatabase | undefined;
  try {
    db = openDatabase(file);
    const rows = db.pragma('quick_check(5)') as { quick_check: string }[];
    const problems = rows.map((r) => r.quick_check).filter((line) => line !== 'ok');
    if (problems.length > 0) {
      throw new DataDirectoryError(
        dir,
        `its database ${DATABASE_FILE} is damaged (SQLite's quick_check reports: ${problems.join('; ').slice(0, 300)}).`,
      );
    }
    if (marker !== undefined && !holdsABoard(db)) {
      throw new DataDirectoryError(
        dir,
        `${MARKER_FILE} says this directory has held a board since ${marker.initialisedAt}, but its database ${DATABASE_FILE} holds no board (not even its tables), as happens when the write-ahead log holding its data was lost or damaged.`,
      );
    }
    return db;
  } catch (error) {
    if (db?.open === true) db.close();
    if (error instanceof DataDirectoryError) throw error;
    throw new DataDirectoryError(
      dir,
      `its database ${DATABASE_FILE} cannot be read as a SQLite database (${sqliteReason(error)}).`,
    );
  }
}

/**
 * Whether `db` holds a board: at least one migration was applied. (The marker is written only after the first
 * migration, so a database without one beside a marker lost what it held. A board may have no members yet:
 * `stdio` and the member commands initialise a directory without creating an owner.)
 */
function holdsABoard(db: SqliteDatabase): boolean {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (table === undefined) return false;
  return db.prepare('SELECT 1 FROM schema_migrations LIMIT 1').get() !== undefined;
}

/**
 * Opens and migrates the database of the data directory `dir`.
 *
 * - No marker and no database: a first start. The directory, the database and the marker are created.
 * - A marker and a database: the database must open, pass `quick_check`, have a sound write-ahead log and hold
 *   a board (its tables).
 * - A database without a marker (a directory from before markers, or one restored by hand): it must open and pass
 *   the same checks but may be empty; the marker is written.
 * - A marker without a database, or a write-ahead log without a database: refused.
 *
 * @throws {@link DataDirectoryError} naming what was found and how to restore from a backup.
 */
export function openDataDirectory(dir: string): SqliteDatabase {
  const file = join(dir, DATABASE_FILE);
  const marker = readMarker(dir);
  let db: SqliteDatabase;
  if (existsSync(file)) {
    db = openExisting(dir, file, marker);
  } else {
    if (marker !== undefined) refuseMissing(dir, marker);
    if (existsSync(`${file}-wal`)) {
      throw new DataDirectoryError(
        dir,
        `it holds the write-ahead log ${DATABASE_FILE}-wal but not the database ${DATABASE_FILE} it belongs to.`,
      );
    }
    mkdirSync(dir, { recursive: true });
    db = openDatabase(file);
  }
  try {
    migrate(db);
    if (marker === undefined) writeMarker(dir);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
