/**
 * Test helper: a throwaway PostgreSQL cluster in a temporary directory, reachable only through a Unix socket
 * in that directory (no TCP port). Needs `initdb` and `pg_ctl` on the PATH; as root it runs them as the
 * `postgres` user.
 *
 * @packageDocumentation
 */
import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** A running temporary cluster: `freshPool()` creates an empty database and a pool on it. */
export interface TempPostgres {
  freshPool(): Promise<pg.Pool>;
  /** Creates an empty database and answers its connection string (Unix socket in the cluster's directory). */
  freshDatabaseUrl(): Promise<string>;
  /** Ends every pool handed out, stops the cluster and deletes its directory. */
  stop(): Promise<void>;
}

/** Starts a temporary PostgreSQL cluster (about a second). */
export async function startTempPostgres(): Promise<TempPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'recourse-pg-'));
  const asRoot = process.getuid?.() === 0;
  const exec = (command: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', command, ...args], { timeout: 60_000 })
      : run(command, args, { timeout: 60_000 });
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    chownSync(dir, Number(stdout.trim()), -1);
  }
  const data = join(dir, 'data');
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'board', '--no-sync']);
  await exec('pg_ctl', [
    '-D',
    data,
    '-o',
    `-c listen_addresses='' -k ${dir} -c fsync=off`,
    '-l',
    join(dir, 'log'),
    '-w',
    'start',
  ]);
  const config = { host: dir, user: 'board' };
  const admin = new pg.Pool({ ...config, database: 'postgres', max: 1 });
  const pools: pg.Pool[] = [admin];
  let count = 0;
  return {
    async freshDatabaseUrl() {
      count += 1;
      const database = `board_test_${count}`;
      await admin.query(`CREATE DATABASE ${database}`);
      return `postgresql://board@/${database}?host=${encodeURIComponent(dir)}`;
    },
    async freshPool() {
      count += 1;
      const database = `board_test_${count}`;
      await admin.query(`CREATE DATABASE ${database}`);
      const pool = new pg.Pool({ ...config, database, max: 10 });
      pools.push(pool);
      return pool;
    },
    async stop() {
      for (const pool of pools) await pool.end().catch(() => undefined);
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
