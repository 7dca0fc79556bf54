/**
 * What the benchmark compares: each configuration is one server, one client and one call on one leg
 * (HTTP 2026-07-28, HTTP 2025, stdio 2026-07-28); each comparison is a ratio of two configurations measured
 * side by side in the same round.
 *
 * @packageDocumentation
 */
import {
  floorHttpCaller,
  floorStdioCaller,
  recourseCaller,
  sdkCaller,
  type CallSpec,
  type Caller,
  type Endpoint,
  type Era,
} from './callers.ts';
import type { SeededBoard } from './fixtures.ts';

/** A leg: transport and era. */
export interface Leg {
  readonly id: 'http-2026' | 'http-2025' | 'stdio-2026';
  readonly transport: 'http' | 'stdio';
  readonly era: Era;
}

/** The three legs measured. */
export const LEGS: readonly Leg[] = [
  { id: 'http-2026', transport: 'http', era: 'modern' },
  { id: 'http-2025', transport: 'http', era: 'legacy' },
  { id: 'stdio-2026', transport: 'stdio', era: 'modern' },
];

/** One measured configuration. */
export interface Config {
  /** `<leg>/<name>`, e.g. `http-2026/board-sqlite`. */
  readonly id: string;
  readonly leg: Leg;
  readonly label: string;
  open(): Promise<Caller>;
}

/** A ratio of two configurations; `kind` says how it is read. */
export interface Comparison {
  readonly leg: Leg;
  readonly label: string;
  readonly a: string;
  readonly b: string;
  /**
   * `throughput`: calls/s of a ÷ b (higher is better); `cost`: calls/s of b ÷ a (how much more a call of a
   * costs); `overhead`: calls/s of b ÷ a − 1, in percent.
   */
  readonly kind: 'throughput' | 'cost' | 'overhead';
  /** The target, as a sentence fragment (e.g. `≥ 1.0`). */
  readonly target?: string;
}

/** An HTTP server child, started on first use. */
export type LazyServer = () => Promise<{ readonly url: string; readonly pid: number }>;

/** The HTTP servers the configurations talk to (PostgreSQL optional). */
export interface HttpServers {
  readonly floor: LazyServer;
  readonly bare: LazyServer;
  readonly boardSqlite: LazyServer;
  readonly boardPg?: LazyServer;
}

const ECHO: CallSpec = { tool: 'echo', args: { text: 'T-1 Benchmark task' }, expect: 'success' };
const GET: CallSpec = { tool: 'tasks_get', args: { ref: 'T-1' }, expect: 'success' };
const MISSING: CallSpec = { tool: 'tasks_get', args: { ref: 'T-999999' }, expect: 'not_found' };

/** Builds every configuration and comparison. */
export function buildConfigs(
  servers: HttpServers,
  sqlite: SeededBoard,
  pg: SeededBoard | undefined,
): { configs: Config[]; comparisons: Comparison[] } {
  const configs: Config[] = [];
  const comparisons: Comparison[] = [];
  for (const leg of LEGS) {
    const http = leg.transport === 'http';
    const add = (name: string, label: string, open: () => Promise<Caller>): void => {
      configs.push({ id: `${leg.id}/${name}`, leg, label, open });
    };
    const boardSqlite = async (): Promise<Endpoint> =>
      http
        ? { kind: 'http', ...(await servers.boardSqlite()), token: sqlite.token }
        : {
            kind: 'stdio',
            script: 'board.ts',
            args: ['--data-dir', sqlite.dataDir!],
            env: { RECOURSE_TOKEN: sqlite.token },
          };
    const bare = async (): Promise<Endpoint> =>
      http
        ? { kind: 'http', ...(await servers.bare()) }
        : { kind: 'stdio', script: 'bare-sdk.ts', args: [], env: {} };

    add('floor', http ? 'floor: node:http + keep-alive client' : 'floor: NDJSON over a pipe', async () => {
      if (!http) return floorStdioCaller(GET);
      const floor = await servers.floor();
      return floorHttpCaller(floor.url, floor.pid, GET);
    });
    add('echo-sdk', 'bare SDK echo, SDK client', async () => sdkCaller(await bare(), leg.era, ECHO));
    add('echo-recourse', 'bare SDK echo, @recourse/client', async () =>
      recourseCaller(await bare(), leg.era, ECHO),
    );
    add('board-sqlite', 'board tasks_get (SQLite), SDK client', async () =>
      sdkCaller(await boardSqlite(), leg.era, GET),
    );
    add('board-sqlite-recourse', 'board tasks_get (SQLite), @recourse/client', async () =>
      recourseCaller(await boardSqlite(), leg.era, GET),
    );
    add('board-sqlite-missing', 'board tasks_get missing ref (SQLite), SDK client', async () =>
      sdkCaller(await boardSqlite(), leg.era, MISSING),
    );
    const boardPgServer = servers.boardPg;
    if (http && pg !== undefined && boardPgServer !== undefined) {
      add('board-pg', 'board tasks_get (PostgreSQL), SDK client', async () =>
        sdkCaller({ kind: 'http', ...(await boardPgServer()), token: pg.token }, leg.era, GET),
      );
    }

    const id = (name: string): string => `${leg.id}/${name}`;
    const compare = (
      label: string,
      a: string,
      b: string,
      kind: Comparison['kind'],
      target?: string,
    ): void => {
      if (!configs.some((c) => c.id === id(a))) return;
      comparisons.push({ leg, label, a: id(a), b: id(b), kind, ...(target === undefined ? {} : { target }) });
    };
    compare('bare SDK echo ÷ floor', 'echo-sdk', 'floor', 'throughput');
    compare('board tasks_get (SQLite) ÷ bare SDK echo', 'board-sqlite', 'echo-sdk', 'throughput', '≥ 1.0');
    compare('board tasks_get (PostgreSQL) ÷ bare SDK echo', 'board-pg', 'echo-sdk', 'throughput');
    compare(
      'error path cost (missing ref vs success)',
      'board-sqlite-missing',
      'board-sqlite',
      'cost',
      '≤ 1.05',
    );
    compare(
      '@recourse/client overhead on board tasks_get',
      'board-sqlite-recourse',
      'board-sqlite',
      'overhead',
      '≤ 5 %',
    );
    compare('@recourse/client overhead on bare SDK echo', 'echo-recourse', 'echo-sdk', 'overhead', '≤ 5 %');
  }
  return { configs, comparisons };
}
