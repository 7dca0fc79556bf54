/**
 * A real Recourse Board for the examples: served over HTTP on loopback, in a temporary data directory, with one
 * assistant member whose token the agent uses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createBoardServer } from '@recourse/board';
import type { BoardServer, Role } from '@recourse/board';
import { startHttpHost } from '@recourse/server';

/** A running example board. */
export interface ExampleBoard {
  readonly url: string;
  /** The board's data directory (its SQLite file is `DATABASE_FILE` in it). */
  readonly dataDir: string;
  /** A bearer token of the assistant member. */
  readonly token: string;
  readonly board: BoardServer;
  close(): Promise<void>;
}

/** How to start the example board. */
export interface ExampleBoardOptions {
  /** The assistant member's name (default `Agent`) and role (default `contributor`). */
  readonly name?: string;
  readonly role?: Role;
  /** The members' rate limit in calls a minute (default: the board's, 120). */
  readonly callsPerMinute?: number;
}

/** Starts the board with one assistant member. */
export async function startExampleBoard(options: ExampleBoardOptions = {}): Promise<ExampleBoard> {
  const dataDir = mkdtempSync(join(tmpdir(), 'recourse-example-'));
  const board = createBoardServer({
    dataDir,
    logger: pino({ level: 'silent' }),
    ...(options.callsPerMinute === undefined
      ? {}
      : { rateLimit: { defaultPerMinute: options.callsPerMinute } }),
  });
  const member = await board.services.members.add({
    name: options.name ?? 'Agent',
    kind: 'assistant',
    role: options.role ?? 'contributor',
  });
  const { token } = await board.services.tokens.create(member.id);
  const host = await startHttpHost({
    factory: board.server.createMcpServer,
    canceller: board.server.inflight,
    verifier: board.verifier,
    logger: pino({ level: 'silent' }),
    flood: false,
  });
  return {
    url: host.url,
    dataDir,
    token,
    board,
    async close() {
      await host.close();
      await board.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
