/**
 * The data the benchmark serves: a board with one owner, a token and task T-1, on SQLite in a temporary
 * directory and on PostgreSQL.
 *
 * @packageDocumentation
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { ensureOwner } from '../../apps/board/src/bootstrap.ts';
import { createBoardServer, type BoardServer } from '../../apps/board/src/board-server.ts';
import { createPgBoardServer } from '../../apps/board/src/board-server.pg.ts';
import { localWriteContext } from '../../apps/board/src/services/write-context.ts';
import { memberPrincipal } from '../../apps/board/src/domain/member.ts';
import { startTempPostgres, type TempPostgres } from '../../test/support/temp-postgres.ts';

/** A seeded board: where it lives and the owner's token. */
export interface SeededBoard {
  readonly token: string;
  readonly dataDir?: string;
  readonly databaseUrl?: string;
}

async function seed(board: BoardServer): Promise<string> {
  const first = await ensureOwner(board.services, 'Bench Owner');
  if (first === undefined) throw new Error('bench: the benchmark board already has members');
  const { member } = first;
  await board.services.tasks.create(localWriteContext(memberPrincipal(member)), {
    title: 'Benchmark task',
    description: 'The task every tasks_get of the benchmark reads.',
    labels: ['bench'],
  });
  await board.close();
  return first.token;
}

const silent = pino({ enabled: false });

/** Seeds a board on SQLite in a fresh temporary directory. */
export async function seedSqlite(): Promise<SeededBoard> {
  const dataDir = mkdtempSync(join(tmpdir(), 'recourse-bench-'));
  const token = await seed(createBoardServer({ dataDir, logger: silent }));
  return { token, dataDir };
}

/**
 * Seeds a board on PostgreSQL: `BENCH_DATABASE_URL` (an empty database) when set, else a throwaway cluster from
 * the tests' embedded PostgreSQL binaries (stopped by `stop`). Undefined when that fails, or with
 * `BENCH_SKIP_POSTGRES=1`.
 */
export async function seedPostgres(): Promise<{ board: SeededBoard; stop: () => Promise<void> } | undefined> {
  let cluster: TempPostgres | undefined;
  let databaseUrl = process.env['BENCH_DATABASE_URL'];
  if (process.env['BENCH_SKIP_POSTGRES'] === '1') return undefined;
  if (databaseUrl === undefined || databaseUrl === '') {
    try {
      cluster = await startTempPostgres();
    } catch (error) {
      process.stderr.write(`bench: no throwaway PostgreSQL (${String(error)}); its rows are skipped.\n`);
      return undefined;
    }
    databaseUrl = await cluster.freshDatabaseUrl();
  }
  const token = await seed(await createPgBoardServer({ databaseUrl, logger: silent }));
  return { board: { token, databaseUrl }, stop: () => cluster?.stop() ?? Promise.resolve() };
}
