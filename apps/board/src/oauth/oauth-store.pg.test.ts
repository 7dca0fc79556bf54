import { afterAll, beforeAll } from 'vitest';
import { createPgBoardStore } from '../store/board-store.pg.ts';
import { migratePg } from '../store/migrations.pg.ts';
import { startTempPostgres, type TempPostgres } from '../../../../test/support/temp-postgres.ts';
import { createPgOAuthStore } from './oauth-store.pg.ts';
import { describeOAuthStoreContract } from './oauth-store.contract.ts';

let postgres: TempPostgres;
beforeAll(async () => {
  postgres = await startTempPostgres();
});
afterAll(async () => {
  await postgres.stop();
});

describeOAuthStoreContract('PostgreSQL', async () => {
  const pool = await postgres.freshPool();
  await migratePg(pool);
  return { store: createPgOAuthStore(pool), board: createPgBoardStore(pool, { ownsPool: false }) };
});
