/**
 * The server side of the agent story: a real Recourse Board over HTTP on loopback, in a temporary data
 * directory, with one assistant member, and a flaky proxy in front of it that injects faults:
 * connections dropped before and after `tasks_create` runs, and `tasks_search` answered 503 while
 * `searchOutage` is on. A second, direct URL reaches the board without the proxy (the "replica").
 */
import type { BoardServer } from '@recourse/board';
import { startFlakyProxy } from '@recourse/client/testing';
import type { FlakyProxy, ProxyAction } from '@recourse/client/testing';
import { startExampleBoard } from '../support/example-board.ts';

/** A running story server. */
export interface StoryServer {
  /** The board behind the flaky proxy. */
  readonly url: string;
  /** The board without the proxy. */
  readonly directUrl: string;
  /** The board's data directory (its SQLite file is `DATABASE_FILE` in it). */
  readonly dataDir: string;
  /** A bearer token of the assistant member. */
  readonly token: string;
  readonly board: BoardServer;
  readonly proxy: FlakyProxy;
  /** While true, the proxy answers every `tasks_search` with HTTP 503. */
  searchOutage: boolean;
  close(): Promise<void>;
}

/** Starts the board and the flaky proxy; `dropEvery` drops one `tasks_create` request in that many. */
export async function startStoryServer(options: { dropEvery?: number } = {}): Promise<StoryServer> {
  const host = await startExampleBoard({ name: 'Scribe', role: 'maintainer' });
  const dropEvery = options.dropEvery ?? 3;
  let creates = 0;
  const story = {} as { searchOutage: boolean };
  story.searchOutage = false;
  const proxy = await startFlakyProxy({
    target: host.url,
    decide: (request): ProxyAction => {
      if (request.tool === 'tasks_search' && story.searchOutage) return { status: 503 };
      if (request.tool !== 'tasks_create') return 'pass';
      creates++;
      if (creates % dropEvery !== 0) return 'pass';
      return (creates / dropEvery) % 2 === 0 ? 'drop_before' : 'drop_after';
    },
  });
  return Object.assign(story, {
    url: proxy.url,
    directUrl: host.url,
    dataDir: host.dataDir,
    token: host.token,
    board: host.board,
    proxy,
    async close() {
      await proxy.close();
      await host.close();
    },
  });
}
