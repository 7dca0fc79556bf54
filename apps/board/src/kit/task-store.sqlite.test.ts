import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { migrate } from '../store/migrations.sqlite.ts';
import { openDatabase } from '../store/open-database.sqlite.ts';
import { holdWriteLock } from '../testing/lock-holder.ts';
import { describeTaskStoreContract, task } from './task-store.contract.ts';
import { createSqliteTaskStore } from './task-store.sqlite.ts';

describeTaskStoreContract('SQLite', () => {
  const db = openDatabase(':memory:');
  migrate(db);
  return Promise.resolve(createSqliteTaskStore(db));
});

it('waits out a database another process holds locked, instead of failing the write', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'recourse-task-store-'));
  const file = join(dir, 'board.sqlite');
  const db = openDatabase(file);
  try {
    migrate(db);
    const store = createSqliteTaskStore(db);
    const holder = await holdWriteLock(file, 300);
    const stored = task('t-locked');
    await store.insert(stored);
    expect(await store.renewLeases('i1', 9_000)).toEqual([]);
    expect(await store.find('t-locked')).toMatchObject({ leaseUntil: 9_000 });
    await holder.released;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
