import { migrate } from '../store/migrations.sqlite.ts';
import { openDatabase } from '../store/open-database.sqlite.ts';
import { describeTaskStoreContract } from './task-store.contract.ts';
import { createSqliteTaskStore } from './task-store.sqlite.ts';

describeTaskStoreContract('SQLite', () => {
  const db = openDatabase(':memory:');
  migrate(db);
  return Promise.resolve(createSqliteTaskStore(db));
});
