import { openDatabase } from '../store/open-database.sqlite.ts';
import { migrate } from '../store/migrations.sqlite.ts';
import { createSqliteBoardStore } from '../store/board-store.sqlite.ts';
import { createSerialLock } from '../store/serial-lock.ts';
import { createSqliteOAuthStore } from './oauth-store.sqlite.ts';
import { describeOAuthStoreContract } from './oauth-store.contract.ts';

describeOAuthStoreContract('SQLite', () => {
  const db = openDatabase(':memory:');
  migrate(db);
  const lock = createSerialLock();
  return Promise.resolve({
    store: createSqliteOAuthStore(db, { lock }),
    board: createSqliteBoardStore(db, { lock }),
  });
});
