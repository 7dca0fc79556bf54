import { describe, expect, it } from 'vitest';
import { openDatabase } from './open-database.sqlite.ts';
import { migrate, MIGRATIONS } from './migrations.sqlite.ts';
import { createSqliteBoardStore } from './board-store.sqlite.ts';
import { describeBoardStoreContract } from './board-store.contract.ts';

describe('migrate', () => {
  it('applies every migration once and nothing on a second run', () => {
    const db = openDatabase(':memory:');
    expect(migrate(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(migrate(db)).toEqual([]);
  });
});

describeBoardStoreContract('SQLite', () => {
  const db = openDatabase(':memory:');
  migrate(db);
  return Promise.resolve(createSqliteBoardStore(db));
});
