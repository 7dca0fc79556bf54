/**
 * Starts the HTTP host of conformance mode: sessionful 2025 era (sampling, elicitation, SSE resumption),
 * stateless 2026-07-28 era, and unauthenticated requests served as the conformance member. TEST ONLY.
 *
 * @packageDocumentation
 */
import { startHttpHost, type HttpHost } from '@recourse/server';
import type { Logger } from 'pino';
import type { BoardServer } from '../board-server.ts';
import type { BoardOAuthWiring } from '../oauth/board-oauth.ts';
import { createConformanceBoard } from './conformance-server.ts';

/** Where the conformance host listens. */
export interface ConformanceHostOptions {
  /** Address to bind (default `127.0.0.1`). */
  readonly host?: string;
  /** Port to bind (default 0: any free port). */
  readonly port?: number;
  readonly logger: Logger;
  /** The board's OAuth authorization server, served beside the endpoint (its tokens act as their members). */
  readonly oauth?: BoardOAuthWiring;
}

/** The warning conformance mode prints at start. */
export const CONFORMANCE_WARNING =
  'CONFORMANCE MODE (test only): requests without a token act as the read-only "Conformance suite" member, ' +
  'and test fixtures are served beside the board tools. Never expose this server beyond loopback.';

/** Starts the board in conformance mode on `host:port`; tokens still work and act as their members. */
export async function startConformanceHost(
  board: BoardServer,
  options: ConformanceHostOptions,
): Promise<HttpHost> {
  const conformance = await createConformanceBoard(board, options.logger);
  const oauth = options.oauth;
  return startHttpHost({
    factory: conformance.server.createMcpServer,
    canceller: conformance.server.inflight,
    verifier: oauth?.verifier ?? board.verifier,
    ...(oauth === undefined ? {} : { routes: (url: string) => oauth.routes(url) }),
    anonymous: conformance.anonymous,
    bus: conformance.bus,
    legacySessions: true,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    logger: options.logger,
    resourceName: 'Recourse Board (conformance mode)',
    // The suites run hundreds of requests in seconds from one address.
    flood: false,
  });
}
