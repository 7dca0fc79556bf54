import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { DataDirectoryError, MARKER_FILE, openDataDirectory } from './data-directory.sqlite.ts';
import { DATABASE_FILE } from './open-database.sqlite.ts';
import { checkWriteAheadLog } from './wal-check.ts';

const dirs: string[] = [];
const fresh = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'recourse-datadir-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const addMember = (db: Database, id: string): void => {
  db.prepare(
    "INSERT INTO members (id, name, kind, role, created_at) VALUES (?, 'Owner', 'person', 'owner', '2026-01-01T00:00:00Z')",
  ).run(id);
};

const refusal = (dir: string): string => {
  try {
    openDataDirectory(dir).close();
  } catch (error) {
    expect(error).toBeInstanceOf(DataDirectoryError);
    return (error as Error).message;
  }
  throw new Error('the data directory was opened');
};

/**
 * A board whose writes are all still in its write-ahead log, as after a crash: the database and log files are
 * copied while the connection is open and before any checkpoint.
 */
function crashedBoard(members: number): string {
  const source = fresh();
  // The migrations and the members stay in the log: no checkpoint runs before the copy.
  const db = openDataDirectory(join(source, 'd'));
  db.pragma('wal_autocheckpoint = 0');
  for (let i = 0; i < members; i += 1) addMember(db, `m_${i}`);
  const dir = fresh();
  for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, MARKER_FILE])
    copyFileSync(join(source, 'd', name), join(dir, name));
  db.close();
  return dir;
}

describe('openDataDirectory', () => {
  it('initialises an empty directory once, with a marker, and reopens it', () => {
    const dir = join(fresh(), 'data');
    const db = openDataDirectory(dir);
    addMember(db, 'm_1');
    db.close();
    expect(JSON.parse(readFileSync(join(dir, MARKER_FILE), 'utf8'))).toMatchObject({
      database: DATABASE_FILE,
    });
    const again = openDataDirectory(dir);
    expect(again.prepare('SELECT count(*) AS n FROM members').get()).toEqual({ n: 1 });
    again.close();
  });

  it('refuses a marker without its database instead of starting over', () => {
    const dir = fresh();
    openDataDirectory(dir).close();
    rmSync(join(dir, DATABASE_FILE));
    const message = refusal(dir);
    expect(message).toContain(`${DATABASE_FILE} is missing`);
    expect(message).toContain('Restore the board from a backup');
    expect(message).not.toContain('\n');
    expect(existsSync(join(dir, DATABASE_FILE))).toBe(false);
  });

  it('refuses a file that is not a SQLite database', () => {
    const dir = fresh();
    openDataDirectory(dir).close();
    writeFileSync(join(dir, DATABASE_FILE), 'x'.repeat(8192));
    expect(refusal(dir)).toMatch(/cannot be read as a SQLite database \(SQLITE_NOTADB/);
  });

  it('refuses a database whose pages are damaged', () => {
    const dir = fresh();
    const db = openDataDirectory(dir);
    for (let i = 0; i < 400; i += 1) addMember(db, `m_${i}_${'x'.repeat(80)}`);
    db.close();
    const file = join(dir, DATABASE_FILE);
    const bytes = readFileSync(file);
    // Overwrite the middle pages (b-tree pages of the members table) with garbage, keeping the file header.
    bytes.fill(0x5a, 4096 * 3, bytes.length - 4096);
    writeFileSync(file, bytes);
    expect(refusal(dir)).toMatch(
      /is damaged \(SQLite's quick_check reports|cannot be read as a SQLite database/,
    );
  });

  it('refuses an empty database beside a marker (its write-ahead log lost)', () => {
    const dir = crashedBoard(3);
    rmSync(join(dir, `${DATABASE_FILE}-wal`));
    expect(refusal(dir)).toContain('holds no board (not even its tables)');
  });

  it('reopens a board initialised without members (stdio and the member commands create no owner)', () => {
    const dir = fresh();
    openDataDirectory(dir).close();
    openDataDirectory(dir).close();
  });

  it('replays a sound write-ahead log left by a crash', () => {
    const dir = crashedBoard(3);
    expect(checkWriteAheadLog(join(dir, `${DATABASE_FILE}-wal`))).toBeUndefined();
    const db = openDataDirectory(dir);
    expect(db.prepare('SELECT count(*) AS n FROM members').get()).toEqual({ n: 3 });
    db.close();
  });

  it('refuses a write-ahead log whose header is damaged', () => {
    const dir = crashedBoard(3);
    const wal = join(dir, `${DATABASE_FILE}-wal`);
    const bytes = readFileSync(wal);
    bytes[18] = (bytes[18] ?? 0) ^ 0xff;
    writeFileSync(wal, bytes);
    expect(refusal(dir)).toContain(
      'write-ahead log board.sqlite-wal is damaged: its header fails its checksum',
    );
  });

  it('refuses a write-ahead log with a damaged frame before committed ones, which SQLite would drop', () => {
    const dir = crashedBoard(5);
    const wal = join(dir, `${DATABASE_FILE}-wal`);
    const bytes = readFileSync(wal);
    const pageSize = bytes.readUInt32BE(8);
    // One byte in the page data of the first frame: every later commit would be silently dropped.
    const at = 32 + 24 + Math.floor(pageSize / 2);
    bytes[at] = (bytes[at] ?? 0) ^ 0x01;
    writeFileSync(wal, bytes);
    expect(refusal(dir)).toMatch(
      /frame 1 of \d+ fails its checksum, and \d+ committed transactions? after it/,
    );
  });

  it('accepts a cut-off last frame (a write a crash interrupted, never committed)', () => {
    const dir = crashedBoard(2);
    const wal = join(dir, `${DATABASE_FILE}-wal`);
    const bytes = readFileSync(wal);
    const last = bytes.length - 10;
    bytes[last] = (bytes[last] ?? 0) ^ 0x01;
    writeFileSync(wal, bytes);
    expect(checkWriteAheadLog(wal)).toBeUndefined();
  });

  it('opens a database without a marker (made before markers or restored by hand) and marks it', () => {
    const dir = fresh();
    openDataDirectory(dir).close();
    rmSync(join(dir, MARKER_FILE));
    openDataDirectory(dir).close();
    expect(existsSync(join(dir, MARKER_FILE))).toBe(true);
  });
});
