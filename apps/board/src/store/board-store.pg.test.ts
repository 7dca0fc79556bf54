import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBoardStoreContract } from './board-store.contract.ts';
import { createPgBoardStore } from './board-store.pg.ts';
import { migratePg, PG_MIGRATIONS } from './migrations.pg.ts';
import { startTempPostgres, type TempPostgres } from '../../../../test/support/temp-postgres.ts';

let postgres: TempPostgres;
beforeAll(async () => {
  postgres = await startTempPostgres();
});
afterAll(async () => {
  await postgres.stop();
});

describe('migratePg', () => {
  it('applies every migration once, also when two instances migrate at the same time', async () => {
    const pool = await postgres.freshPool();
    const [a, b] = await Promise.all([migratePg(pool), migratePg(pool)]);
    expect([...(a ?? []), ...(b ?? [])].sort()).toEqual(PG_MIGRATIONS.map((m) => m.version));
    expect(await migratePg(pool)).toEqual([]);
  });
});

describeBoardStoreContract('PostgreSQL', async () => {
  const pool = await postgres.freshPool();
  await migratePg(pool);
  return createPgBoardStore(pool, { ownsPool: false });
});
