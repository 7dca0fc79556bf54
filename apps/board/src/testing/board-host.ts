/**
 * Test helpers for end-to-end tests: a board on a temporary data directory served over HTTP, with one member
 * and token per role, and SDK v2 clients for both protocol eras.
 *
 * @packageDocumentation
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { createBoardServer, type SqliteBoardServer, type SqliteBoardServerOptions } from '../board-server.ts';
import type { Member } from '../domain/member.ts';
import type { Role } from '../domain/roles.ts';
import { startHttpHost, type HttpHostOptions } from '@recourse/server';
import { boardOAuth, type BoardOAuthWiring } from '../oauth/board-oauth.ts';

/** The two client eras: pinned to 2026-07-28, or the SDK's 2025 default. */
export type Era = 'modern' | 'legacy';

/** A served test board: URL, members and tokens per role, the captured log lines, and `close()`. */
export interface TestBoard {
  readonly url: string;
  readonly dataDir: string;
  readonly board: SqliteBoardServer;
  readonly members: Record<Role, Member>;
  readonly tokens: Record<Role, string>;
  /** Every pino line the server wrote, parsed. */
  readonly logLines: Record<string, unknown>[];
  /** The OAuth wiring, when the board was started with `oauth`. */
  readonly oauth: BoardOAuthWiring | undefined;
  connect(era: Era, role: Role): Promise<Client>;
  /** A 2026-07-28 client sending `Authorization: Bearer <token>`. */
  connectWithToken(token: string): Promise<Client>;
  /** Closes the host and the board; removes the data directory unless `keepData`. */
  close(keepData?: boolean): Promise<void>;
}

/**
 * Starts a board over HTTP on 127.0.0.1, port 0, in `dataDir` (default: a fresh temporary directory); `host`
 * adds HTTP host options (e.g. `metrics`).
 */
export async function startTestBoard(
  testOptions: Omit<SqliteBoardServerOptions, 'dataDir' | 'db' | 'logger'> & {
    dataDir?: string;
    host?: Pick<HttpHostOptions, 'metrics' | 'onRefusal' | 'readiness'>;
    /** Serve the OAuth authorization server too, with this access token lifetime (seconds). */
    oauth?: { accessTokenTtlSeconds?: number };
  } = {},
): Promise<TestBoard> {
  const { host: hostOptions, ...options } = testOptions;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'recourse-board-'));
  const logLines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'debug' }, sink);
  const board = createBoardServer({ ...options, dataDir, logger });
  const existing = await board.services.members.list(true);
  const members = {} as Record<Role, Member>;
  const tokens = {} as Record<Role, string>;
  for (const role of ['owner', 'maintainer', 'contributor', 'viewer'] as const) {
    const member =
      existing.find((m) => m.role === role) ??
      (await board.services.members.add({
        name: `${role} one`,
        kind: role === 'contributor' ? 'assistant' : 'person',
        role,
      }));
    members[role] = member;
    tokens[role] = (await board.services.tokens.create(member.id)).token;
  }
  const oauth =
    options.oauth === undefined
      ? undefined
      : boardOAuth(board, {
          logger,
          logLines: (id) => logLines.filter((line) => line['correlationId'] === id),
          ...(options.oauth.accessTokenTtlSeconds === undefined
            ? {}
            : { accessTokenTtlSeconds: options.oauth.accessTokenTtlSeconds }),
        });
  const host = await startHttpHost({
    factory: board.server.createMcpServer,
    canceller: board.server.inflight,
    verifier: oauth?.verifier ?? board.verifier,
    ...(oauth === undefined ? {} : { routes: (mcpUrl: string) => oauth.routes(mcpUrl) }),
    logger,
    flood: false,
    ...hostOptions,
  });
  return {
    url: host.url,
    dataDir,
    board,
    members,
    tokens,
    logLines,
    oauth,
    connect: (era, role) => connectWith(era, tokens[role]),
    connectWithToken: (token) => connectWith('modern', token),
    async close(keepData = false) {
      await host.close();
      await board.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };

  async function connectWith(era: Era, token: string): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(host.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    const client = new Client(
      { name: 'board-e2e', version: '0.0.1' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    await client.connect(transport);
    return client;
  }
}

/** The text of a tool result. */
export function textOf(result: unknown): string {
  return (result as { content: { text?: string }[] }).content.map((c) => c.text ?? '').join('');
}

/** The `dev.recourse/failure` meta of a tool result, or undefined. */
export function failureMetaOf(result: unknown): Record<string, unknown> | undefined {
  return (result as { _meta?: Record<string, Record<string, unknown>> })._meta?.['dev.recourse/failure'];
}
