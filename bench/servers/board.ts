/**
 * Recourse Board as the benchmark serves it: the real board (SQLite in `--data-dir`, or PostgreSQL when
 * `DATABASE_URL` is set) behind the real HTTP or stdio host, with the per-member rate limit and the flood
 * guard raised far out of the way (they still count every call). Logs go to stderr at `warn`.
 *
 * Usage: `node --import tsx bench/servers/board.ts http|stdio --data-dir DIR`; stdio serves as the member
 * whose token is in `RECOURSE_TOKEN`. The HTTP mode prints `READY <url>`. With `BENCH_MEMORY_FILE` set, SIGUSR2
 * writes `process.memoryUsage()` (after a full collection when run with --expose-gc) to that file.
 *
 * @packageDocumentation
 */
import { writeFileSync } from 'node:fs';
import { pino } from 'pino';
import { startHttpHost, startStdioHost } from '@recourse/server';
import { createBoardServer, type BoardServer } from '../../apps/board/src/board-server.ts';
import { createPgBoardServer } from '../../apps/board/src/board-server.pg.ts';

const RAISED_RATE_LIMIT = { defaultPerMinute: 1_000_000_000 };
const RAISED_FLOOD = { requests: 1_000_000_000, perMs: 10_000 };

const mode = process.argv[2];
const dirFlag = process.argv.indexOf('--data-dir');
const dataDir = dirFlag > 0 ? process.argv[dirFlag + 1] : undefined;
const databaseUrl = process.env['DATABASE_URL'];
const logger = pino({ name: 'bench-board', level: 'warn' }, pino.destination(2));

const board: BoardServer =
  databaseUrl !== undefined && databaseUrl !== ''
    ? await createPgBoardServer({ databaseUrl, logger, rateLimit: RAISED_RATE_LIMIT })
    : createBoardServer({
        ...(dataDir === undefined ? {} : { dataDir }),
        logger,
        rateLimit: RAISED_RATE_LIMIT,
      });

// The memory phase asks for the heap after a full collection (the process runs with --expose-gc).
const memoryFile = process.env['BENCH_MEMORY_FILE'];
if (memoryFile !== undefined) {
  process.on('SIGUSR2', () => {
    (globalThis as { gc?: () => void }).gc?.();
    writeFileSync(memoryFile, JSON.stringify(process.memoryUsage()));
  });
}

async function shutdown(stop: () => Promise<void>): Promise<void> {
  await stop();
  await board.close();
  process.exit(0);
}

if (mode === 'stdio') {
  const verified = await board.verifier.verify(process.env['RECOURSE_TOKEN'] ?? '');
  if (!verified.ok) throw new Error(`bench board: RECOURSE_TOKEN refused (${verified.reason})`);
  const host = await startStdioHost({
    factory: board.server.createMcpServer,
    principal: verified.principal,
    logger,
  });
  await host.closed;
  await shutdown(() => host.close());
} else {
  const host = await startHttpHost({
    factory: board.server.createMcpServer,
    canceller: board.server.inflight,
    verifier: board.verifier,
    logger,
    flood: RAISED_FLOOD,
  });
  process.stdout.write(`READY ${host.url}\n`);
  process.once('SIGTERM', () => void shutdown(() => host.close()));
}
