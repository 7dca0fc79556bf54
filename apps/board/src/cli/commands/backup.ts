/**
 * `recourse-board backup FILE`: a consistent copy of the SQLite board, made with SQLite's online backup while the
 * board may keep serving, checked before it is given its name.
 *
 * @packageDocumentation
 */
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { DATA_DIR_OPTION, resolveDataDir } from '../data-dir.ts';
import type { CliIo } from '../io.ts';
import { parseCommand } from '../parse.ts';
import { UsageError } from '../usage-error.ts';
import { openDataDirectory } from '../../store/data-directory.sqlite.ts';
import { DATABASE_FILE } from '../../store/open-database.sqlite.ts';

const count = (db: Database.Database, table: string): number =>
  (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

/** Runs `backup`; returns the exit code or `'help'`. */
export async function backupCommand(args: readonly string[], io: CliIo): Promise<number | 'help'> {
  const parsed = parseCommand('backup', args, { ...DATA_DIR_OPTION }, 1);
  if (parsed.values['help'] === true) return 'help';
  const name = parsed.positionals[0];
  if (name === undefined || name === '') {
    throw new UsageError(
      'recourse-board backup: the backup FILE is required, e.g. "recourse-board backup board-2026-11-30.sqlite". Run "recourse-board backup --help".',
    );
  }
  const databaseUrl = io.env['DATABASE_URL'];
  if (databaseUrl !== undefined && databaseUrl !== '') {
    throw new UsageError(
      'recourse-board backup: DATABASE_URL is set, so the board lives in PostgreSQL; back it up with pg_dump (pg_dump --format=custom --file FILE "$DATABASE_URL") and restore with pg_restore.',
    );
  }
  const target = resolve(io.cwd, name);
  if (existsSync(target)) {
    throw new UsageError(
      `recourse-board backup: ${target} already exists; choose a new file name (a backup never overwrites a file).`,
    );
  }
  const dir = resolveDataDir(parsed.values['data-dir'], io);
  if (!existsSync(join(dir, DATABASE_FILE))) {
    io.err(
      `recourse-board backup: there is no board database ${join(dir, DATABASE_FILE)} to back up; nothing was written. Name the board's directory with --data-dir or RECOURSE_DATA_DIR.`,
    );
    return 1;
  }
  // Checked like a start: a damaged database or write-ahead log is reported, not copied as if it were sound.
  const source = openDataDirectory(dir);
  const partial = `${target}.partial`;
  try {
    await source.backup(partial);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    source.close();
  }
  const copy = new Database(partial, { readonly: true, fileMustExist: true });
  let summary: string;
  try {
    const check = (copy.pragma('quick_check(1)') as { quick_check: string }[])[0]?.quick_check;
    if (check !== 'ok') throw new Error(`the copy fails SQLite's quick_check (${check ?? 'no answer'})`);
    summary = `${count(copy, 'members')} members, ${count(copy, 'tasks')} tasks`;
  } catch (error) {
    copy.close();
    rmSync(partial, { force: true });
    throw error;
  }
  copy.close();
  renameSync(partial, target);
  io.out(
    `Backed up the board in ${dir} to ${target} (${summary}, ${statSync(target).size} bytes). To restore it, see "recourse-board backup --help".`,
  );
  return 0;
}
