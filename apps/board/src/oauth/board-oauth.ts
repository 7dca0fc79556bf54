/**
 * Wires the authorization server into the board's HTTP host: the routes it serves beside `/mcp` (built once the
 * host knows its URL), the protected-resource metadata naming it, and one token verifier that accepts both
 * board tokens (`rbt_…`, from `recourse-board tokens create`) and the OAuth access tokens it issued.
 *
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { HostRoutes, TokenVerifier } from '@recourse/server';
import type { BoardServer } from '../board-server.ts';
import { TOKEN_PREFIX } from '../services/token-service.ts';
import { createAuthorizationServer, OAUTH_ROUTES, type AuthorizationServer } from './authorization-server.ts';
import { BOARD_SCOPE_NAMES } from './oauth-scopes.ts';
import { createSigner } from '../pages/index.ts';
import { createBoardPages } from '../web/board-pages.ts';

/** Options of {@link boardOAuth}. */
export interface BoardOAuthOptions {
  readonly logger: Logger;
  /** Access token lifetime in seconds (default 600). */
  readonly accessTokenTtlSeconds?: number;
  /** Refresh token lifetime in seconds (default 30 days). */
  readonly refreshTokenTtlSeconds?: number;
  /** Log lines by correlation id, for the failure console's lookup (default: none kept). */
  readonly logLines?: (correlationId: string) => readonly Record<string, unknown>[];
}

/** What the HTTP host needs to serve OAuth beside the MCP endpoint. */
export interface BoardOAuthWiring {
  /** Board tokens and OAuth access tokens. */
  readonly verifier: TokenVerifier;
  /** The host's `routes` option. */
  routes(mcpUrl: string): Promise<HostRoutes>;
  /** The authorization server once the routes were built. */
  server(): AuthorizationServer | undefined;
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/** The same endpoint under the other loopback names, when `mcpUrl` is on a loopback name. */
export function loopbackAliases(mcpUrl: string): string[] {
  const url = new URL(mcpUrl);
  if (!LOOPBACK.includes(url.hostname)) return [];
  return LOOPBACK.filter((name) => name !== url.hostname).map((name) => {
    const alias = new URL(url.href);
    alias.hostname = name;
    return alias.href;
  });
}

/** Creates the OAuth wiring for `board`. */
export function boardOAuth(board: BoardServer, options: BoardOAuthOptions): BoardOAuthWiring {
  let server: AuthorizationServer | undefined;
  return {
    server: () => server,
    verifier: {
      verify(token) {
        if (server === undefined || token.startsWith(TOKEN_PREFIX)) return board.verifier.verify(token);
        return server.verifier.verify(token);
      },
    },
    async routes(mcpUrl) {
      server = await createAuthorizationServer(board.services, board.oauthStore, {
        mcpUrl,
        alsoKnownAs: loopbackAliases(mcpUrl),
        logger: options.logger,
        ...(options.accessTokenTtlSeconds === undefined
          ? {}
          : { accessTokenTtlSeconds: options.accessTokenTtlSeconds }),
        ...(options.refreshTokenTtlSeconds === undefined
          ? {}
          : { refreshTokenTtlSeconds: options.refreshTokenTtlSeconds }),
      });
      const running = server;
      const pages = createBoardPages({
        board,
        signer: createSigner(
          await board.oauthStore.secret('page-key', () => randomBytes(32).toString('base64url')),
        ),
        origin: running.issuer,
        log: options.logger.child({ component: 'pages' }),
        ...(options.logLines === undefined ? {} : { logLines: options.logLines }),
      });
      return {
        handle: async (req, res, path) =>
          (await pages.handle(req, res, path)) || running.handle(req, res, path),
        authorizationServers: [running.issuer],
        scopesSupported: BOARD_SCOPE_NAMES,
        // Metadata, registration, token and revocation are public CORS endpoints; the pages are not.
        crossOrigin: (path) =>
          path.startsWith('/.well-known/') ||
          (path.startsWith('/oauth/') && !path.startsWith(`${OAUTH_ROUTES.interaction}/`)),
        close: () => running.close(),
      };
    },
  };
}
