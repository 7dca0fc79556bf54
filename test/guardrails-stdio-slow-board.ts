/**
 * Test fixture, spawned by `guardrails-cancel.test.ts`: the real board over stdio, exactly as
 * `recourse-board stdio` serves it (the SQLite board of GUARDRAILS_DATA_DIR as the member of RECOURSE_TOKEN),
 * except that every store transaction waits GUARDRAILS_SLOW_WRITE_MS before it runs. The slow store reports on
 * stderr, as `GUARDRAILS {json}` lines, when a write starts (`{ event: 'started', at }`), when the call's signal fires (`{ event: 'signal', at, reason }`, `at` in
 * epoch ms) and what became of the write (`{ event: 'write', outcome: 'written' | 'refused' }`).
 */
import { pino } from 'pino';
import { startStdioHost } from '@recourse/server';
import { createBoardServer } from '../apps/board/src/board-server.ts';
import type { BoardStore } from '../apps/board/src/store/board-store.ts';

const report = (event: Record<string, unknown>): void => {
  process.stderr.write(`GUARDRAILS ${JSON.stringify(event)}\n`);
};

function slowWrites(inner: BoardStore, slowMs: number): BoardStore {
  return {
    ...inner,
    async transaction(work, signal) {
      report({ event: 'started', at: Date.now() });
      signal?.addEventListener('abort', () => {
        report({ event: 'signal', at: Date.now(), reason: String(signal.reason) });
      });
      await new Promise((resolve) => setTimeout(resolve, slowMs));
      try {
        const result = await inner.transaction(work, signal);
        report({ event: 'write', outcome: 'written' });
        return result;
      } catch (error) {
        report({ event: 'write', outcome: 'refused' });
        throw error;
      }
    },
  };
}

const dataDir = process.env['GUARDRAILS_DATA_DIR'];
const token = process.env['RECOURSE_TOKEN'];
const slowMs = Number(process.env['GUARDRAILS_SLOW_WRITE_MS'] ?? '1500');
if (dataDir === undefined || token === undefined) {
  throw new Error('GUARDRAILS_DATA_DIR and RECOURSE_TOKEN must be set; this fixture is spawned by a test.');
}
const board = createBoardServer({
  dataDir,
  logger: pino({ level: 'warn' }, pino.destination(2)),
  wrapStore: (inner) => slowWrites(inner, slowMs),
});
const verified = await board.verifier.verify(token);
if (!verified.ok) throw new Error(`The token in RECOURSE_TOKEN was refused (${verified.reason}).`);
const host = await startStdioHost({ factory: board.server.createMcpServer, principal: verified.principal });
await host.closed;
await board.close();
