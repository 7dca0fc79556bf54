/**
 * Test helper: a throwaway PostgreSQL cluster in a temporary directory, reachable only through a Unix socket in
 * that directory (no TCP port). The server binaries come from npm (see `postgres-binaries.ts`), so nothing has to
 * be installed on the machine. A cluster that a crashed test leaves behind is stopped when the process exits.
 *
 * ```ts
 * const postgres = await startTempPostgres();  // about a second
 * const url = await postgres.freshDatabaseUrl(); // an empty database: postgresql://board@/db?host=<socket directory>
 * await postgres.stop();
 * ```
 *
 * @packageDocumentation
 */
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresBinaries, type PostgresBinaries, runBinary, runOptions } from './postgres-binaries.ts';

/** A running temporary cluster. Every database it hands out is new and empty. */
export interface TempPostgres {
  /** Creates an empty database and answers its connection string (Unix socket in the cluster's directory). */
  freshDatabaseUrl(): Promise<string>;
  /** Creates an empty database and answers a pool on it (ended by `stop`). */
  freshPool(): Promise<pg.Pool>;
  /** Ends every pool handed out, stops the cluster and deletes its directory. */
  stop(): Promise<void>;
}

/** Starts a temporary PostgreSQL cluster (about a second; longer on a loaded machine). */
export async function startTempPostgres(from?: PostgresBinaries): Promise<TempPostgres> {
  const binaries = from ?? (await postgresBinaries());
  const dir = mkdtempSync(join(tmpdir(), 'recourse-pg-'));
  if (binaries.runAs !== undefined) chownSync(dir, binaries.runAs.uid, -1);
  const data = join(dir, 'data');
  const logFile = join(dir, 'log');
  await runBinary(binaries, binaries.initdb, [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'board',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  try {
    await runBinary(binaries, binaries.pgCtl, [
      '-D',
      data,
      '-o',
      `-c listen_addresses='' -k ${dir} -c fsync=off -c full_page_writes=off`,
      '-l',
      logFile,
      '-w',
      'start',
    ]);
  } catch (error) {
    let log = '';
    try {
      log = readFileSync(logFile, 'utf8');
    } catch {
      // no log written
    }
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start in ${dir}: ${String(error)}\n${log}`);
  }
  const stopNow = () => {
    try {
      execFileSync(binaries.pgCtl, ['-D', data, '-m', 'immediate', 'stop'], {
        ...runOptions(binaries),
        stdio: 'ignore',
        timeout: 10_000,
      });
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopNow);

  const config = { host: dir, user: 'board' };
  const admin = new pg.Pool({ ...config, database: 'postgres', max: 1 });
  const pools: pg.Pool[] = [admin];
  let count = 0;
  const freshDatabase = async () => {
    count += 1;
    const database = `board_test_${count}`;
    await admin.query(`CREATE DATABASE ${database}`);
    return database;
  };
  return {
    async freshDatabaseUrl() {
      const database = await freshDatabase();
      return `postgresql://board@/${database}?host=${encodeURIComponent(dir)}`;
    },
    async freshPool() {
      const pool = new pg.Pool({ ...config, database: await freshDatabase(), max: 10 });
      pools.push(pool);
      return pool;
    },
    async stop() {
      for (const pool of pools) await pool.end().catch(() => undefined);
      process.removeListener('exit', stopNow);
      await runBinary(binaries, binaries.pgCtl, ['-D', data, '-m', 'immediate', 'stop']).catch(
        () => undefined,
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
