import { afterAll, beforeAll } from 'vitest';
import { migratePg } from '../store/migrations.pg.ts';
import { startTempPostgres, type TempPostgres } from '../../../../test/support/temp-postgres.ts';
import { describeTaskStoreContract } from './task-store.contract.ts';
import { createPgTaskStore } from './task-store.pg.ts';

let postgres: TempPostgres;
beforeAll(async () => {
  postgres = await startTempPostgres();
});
afterAll(async () => {
  await postgres.stop();
});

describeTaskStoreContract('PostgreSQL', async () => {
  const pool = await postgres.freshPool();
  await migratePg(pool);
  return createPgTaskStore(pool);
});
