/**
 * Notices that the board's database file was deleted or replaced while the board runs. SQLite keeps writing
 * into a deleted file through its open handle, and everything written there vanishes when the process ends, so
 * without this check a board whose data directory was removed would keep acknowledging writes that are already
 * lost. The guard compares the file at the database's path with the one opened (device and inode) before every
 * turn of the database lock. Once it differs:
 *
 * - every call is refused with `internal` / `DATABASE_FILE_GONE` (nothing written, retrying will not help until
 *   the operator acts), and the board's log says so once;
 * - what the open database still holds is saved once, with SQLite's online backup, to
 *   `board.sqlite.rescued-<time>` in the data directory (recreated if it was removed), together with the
 *   directory's marker, so that a restart refuses to start as a first start and names the rescued copy.
 *
 * @packageDocumentation
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { Logger } from 'pino';
import { ToolFailure } from '@recourse/core';
import { MARKER_FILE, writeMarker } from './data-directory.sqlite.ts';
import { DATABASE_FILE } from './open-database.sqlite.ts';

/** Checks, before database work, that the database file is still the one the board opened. */
export interface DatabaseFileGuard {
  /** @throws the `internal` failure `DATABASE_FILE_GONE` once the file was deleted or replaced. */
  check(): void;
  /** Resolves with the rescued copy's path once the rescue (started by the first failed check) has ended. */
  rescued(): Promise<string | undefined>;
  /**
   * Checks once more and, when the file is gone, waits for the rescue and returns one paragraph for the
   * operator saying what happened and where the data went; undefined when the file is still there.
   */
  report(): Promise<string | undefined>;
}

const identity = (path: string): string | undefined => {
  try {
    const stats = statSync(path);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
};

/** Guards the database `db` opened from `dir`/board.sqlite. */
export function guardDatabaseFile(db: Database, dir: string, logger?: Logger): DatabaseFileGuard {
  const file = join(dir, DATABASE_FILE);
  const opened = identity(file);
  let rescue: Promise<string | undefined> | undefined;
  const failure = (rescuedAs: string | undefined): ToolFailure =>
    new ToolFailure({
      category: 'internal',
      code: 'DATABASE_FILE_GONE',
      message: `The board's database file ${DATABASE_FILE} was deleted or replaced while the board was running, so the call was refused rather than written where it would be lost.`,
      next:
        rescuedAs === undefined
          ? 'Ask the board operator to stop the board and restore it from a backup.'
          : `Ask the board operator to stop the board and restore it from the copy it saved (${rescuedAs}) or from a backup.`,
      retryable: false,
      changed: false,
    });
  const startRescue = (): Promise<string | undefined> => {
    const target = join(dir, `${DATABASE_FILE}.rescued-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    return (async () => {
      try {
        mkdirSync(dir, { recursive: true });
        if (!existsSync(join(dir, MARKER_FILE))) writeMarker(dir);
        await db.backup(target);
        logger?.error(
          { rescued: target },
          `The database file ${file} was deleted or replaced while the board was running; every call is now refused. What the board held was saved to ${target}: stop the board and restore it (see "recourse-board backup --help").`,
        );
        return target;
      } catch (error) {
        logger?.error(
          { err: error },
          `The database file ${file} was deleted or replaced while the board was running; every call is now refused, and saving a copy of what it held failed. Stop the board and restore it from a backup.`,
        );
        return undefined;
      }
    })();
  };
  let rescuedAs: string | undefined;
  return {
    check() {
      if (opened === undefined || identity(file) === opened) return;
      if (rescue === undefined) {
        rescue = startRescue();
        void rescue.then((path) => {
          rescuedAs = path;
        });
      }
      throw failure(rescuedAs);
    },
    rescued: () => rescue ?? Promise.resolve(undefined),
    async report() {
      try {
        this.check();
        return undefined;
      } catch {
        const saved = await rescue;
        return (
          `The database file ${file} was deleted or replaced while the board was running; every call since was refused and nothing was written. ` +
          (saved === undefined
            ? 'Saving a copy of what the board held failed; restore the board from a backup (see "recourse-board backup --help").'
            : `What the board held was saved to ${saved}; restore it as ${DATABASE_FILE} (see "recourse-board backup --help") or restore a backup.`)
        );
      }
    },
  };
}
