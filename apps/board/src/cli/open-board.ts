/**
 * Opens the board a CLI command works on: PostgreSQL when `DATABASE_URL` is set, else SQLite in the data
 * directory.
 *
 * @packageDocumentation
 */
import type { Logger } from 'pino';
import { createBoardServer, type BoardServer, type BoardServerOptions } from '../board-server.ts';
import { createPgBoardServer } from '../board-server.pg.ts';
import { resolveDataDir } from './data-dir.ts';
import type { CliIo } from './io.ts';

/** An open board and a description of where its data lives (never the connection string). */
export interface OpenedBoard {
  readonly board: BoardServer;
  readonly where: string;
}

/**
 * Opens the board for a command: `DATABASE_URL` wins over `--data-dir` / `RECOURSE_DATA_DIR` / `./.data`.
 * `options` (rate limits, default deadline) go to the board server.
 */
export async function openBoard(
  io: CliIo,
  dataDirFlag: string | boolean | undefined,
  logger: Logger,
  options: Omit<BoardServerOptions, 'logger'> = {},
): Promise<OpenedBoard> {
  const databaseUrl = io.env['DATABASE_URL'];
  if (databaseUrl !== undefined && databaseUrl !== '') {
    return {
      board: await createPgBoardServer({ ...options, databaseUrl, logger }),
      where: 'PostgreSQL (DATABASE_URL)',
    };
  }
  const dataDir = resolveDataDir(dataDirFlag, io);
  return { board: createBoardServer({ ...options, dataDir, logger }), where: dataDir };
}
