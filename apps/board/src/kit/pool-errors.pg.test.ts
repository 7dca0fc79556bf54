import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startTempPostgres, type TempPostgres } from '../../../../test/support/temp-postgres.ts';
import { watchPoolErrors, type DatabaseErrorKind } from './pool-errors.pg.ts';

let postgres: TempPostgres;
beforeAll(async () => {
  postgres = await startTempPostgres();
});
afterAll(async () => {
  await postgres.stop();
});

describe('watchPoolErrors', () => {
  it('counts each failed query once, on the pool and on a checked-out client, and passes the error on', async () => {
    const pool = new pg.Pool({ connectionString: await postgres.freshDatabaseUrl(), max: 2 });
    const seen: DatabaseErrorKind[] = [];
    watchPoolErrors(pool, (kind) => seen.push(kind));
    try {
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
      await expect(pool.query('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
      const client = await pool.connect();
      try {
        await expect(client.query('SELECT nope FROM')).rejects.toThrow();
      } finally {
        client.release();
      }
      expect(seen).toEqual(['query', 'query']);
    } finally {
      await pool.end();
    }
  });

  it('counts a connection that cannot be opened', async () => {
    const url = (await postgres.freshDatabaseUrl()).replace(/board_test_\d+/, 'no_such_database');
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const seen: DatabaseErrorKind[] = [];
    watchPoolErrors(pool, (kind) => seen.push(kind));
    try {
      await expect(pool.query('SELECT 1')).rejects.toThrow(/no_such_database/);
      await expect(pool.connect()).rejects.toThrow(/no_such_database/);
      expect(seen).toEqual(['connection', 'connection']);
    } finally {
      await pool.end();
    }
  });
});
